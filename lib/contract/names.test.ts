import { normalizeName, validateMovieBase, validateRoomName, validateUsername } from './validation';

describe('names (trimmed, never blank)', () => {
  it('normalizes a name by trimming it, inner spaces kept', () => {
    expect(normalizeName('  Movie night \t')).toBe('Movie night');
    expect(normalizeName('   ')).toBe('');
  });

  it("refuses a blank name with the contract's empty-name text", () => {
    expect(validateUsername('   ')).toBe('username is empty');
    expect(validateRoomName(' \t ')).toBe('empty room name');
    expect(validateMovieBase({ url: 'https://media.test/a.mp4', name: '  ' })).toBe('empty name');
    expect(validateUsername(' alice ')).toBeNull();
  });

});
