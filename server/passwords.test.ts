/** @jest-environment node */
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcrypt';
import { BCRYPT_PARALLELISM, bcryptCost, hashPassword, verifyPassword } from './passwords';

// jest.setup.ts lowers the cost for the other server tests; these check the server's own default.
delete process.env.BCRYPT_COST;

describe('passwords', () => {
  it('verifies a hash written by bcryptjs (the hashing of earlier versions) and refuses a wrong password', async () => {
    const earlier = '$2b$10$nb/TGwXibXCV4fEgX8SKmuFQlvjwSuPhkPyK1fzqT28qFsXkxdAYy'; // bcryptjs 3, "hunter2"
    await expect(verifyPassword('hunter2', earlier)).resolves.toBe(true);
    await expect(verifyPassword('hunter3', earlier)).resolves.toBe(false);
    await expect(verifyPassword('hunter2', 'not a hash')).resolves.toBe(false);
    await expect(verifyPassword('hunter2', '')).resolves.toBe(false);
  });

  it('takes its cost from BCRYPT_COST, 4 to 31, and refuses anything else', () => {
    expect(bcryptCost({})).toBe(10);
    expect(bcryptCost({ BCRYPT_COST: ' 12 ' })).toBe(12);
    expect(bcryptCost({ BCRYPT_COST: '4' })).toBe(4);
    for (const wrong of ['3', '32', '10.5', 'ten']) {
      expect(() => bcryptCost({ BCRYPT_COST: wrong })).toThrow(`BCRYPT_COST must be an integer from 4 to 31, got ${wrong}`);
    }
  });

  it('hashes at a lower cost when told, and checks hashes of either cost', async () => {
    process.env.BCRYPT_COST = '4';
    try {
      const low = await hashPassword('correct horse');
      expect(low).toMatch(/^\$2b\$04\$/);
      await expect(verifyPassword('correct horse', low)).resolves.toBe(true);
    } finally {
      delete process.env.BCRYPT_COST;
    }
    await expect(verifyPassword('correct horse', await hashPassword('correct horse'))).resolves.toBe(true);
  });

  it('hashes with cost 10 and round-trips', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$2b\$10\$/);
    await expect(verifyPassword('correct horse', hash)).resolves.toBe(true);
  });

  it('hashes off the event loop: the loop stays mostly idle while 8 passwords are checked', async () => {
    const hash = await hashPassword('storm');
    const before = performance.eventLoopUtilization();
    await Promise.all(Array.from({ length: 8 }, () => verifyPassword('storm', hash)));
    const { utilization } = performance.eventLoopUtilization(before);
    // bcryptjs ran the rounds on this thread (utilization near 1); the native addon uses the thread pool.
    expect(utilization).toBeLessThan(0.5);
  });

  it(`runs at most ${BCRYPT_PARALLELISM} bcrypt computation(s) at once, leaving a core to the event loop`, async () => {
    const hash = await hashPassword('storm');
    let running = 0;
    let most = 0;
    const compare = bcrypt.compare.bind(bcrypt) as (data: string, encrypted: string) => Promise<boolean>;
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- bcrypt's typings include its callback form; hashPassword uses the promise one
    const spy = jest.spyOn(bcrypt, 'compare').mockImplementation(async (data: string | Buffer, encrypted: string) => {
      most = Math.max(most, ++running);
      try {
        return await compare(String(data), encrypted);
      } finally {
        running--;
      }
    });
    try {
      await Promise.all(Array.from({ length: 6 }, () => verifyPassword('storm', hash)));
    } finally {
      spy.mockRestore();
    }
    expect(most).toBe(BCRYPT_PARALLELISM);
  });
});
