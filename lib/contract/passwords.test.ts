import { validateNewUserPassword, validateUserPassword } from './validation';

describe('user passwords', () => {
  it('asks a new password for 8 characters at least, after the contract rules', () => {
    expect(validateNewUserPassword('')).toBe('user password empty');
    expect(validateNewUserPassword('1234567')).toBe('password too short');
    expect(validateNewUserPassword('12345678')).toBeNull();
    expect(validateNewUserPassword('x'.repeat(33))).toBe('password too long');
    expect(validateNewUserPassword('pässwörd1')).toBe('password has invalid char');
  });

  it('still lets a short existing password sign in (older and v0.9.11 accounts)', () => {
    expect(validateUserPassword('pw')).toBeNull();
  });
});
