import { z } from 'zod/mini';
import { validateUsername } from '@/lib/contract/validation';
import { contractName } from './form-rules';

describe('contractName', () => {
  it('gives the form the trimmed name, and a blank one as empty at its field', () => {
    const schema = z.object({ username: contractName(validateUsername) });
    expect(schema.parse({ username: '  alice  ' })).toEqual({ username: 'alice' });
    const blank = schema.safeParse({ username: '    ' });
    expect(blank.success).toBe(false);
    expect(blank.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[['username'], 'username is empty']]);
  });
});
