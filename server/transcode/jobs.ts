/**
 * The bound on the short jobs ffprobe and ffmpeg do for users (docs/transcode.md "Limits"): reading
 * what a film holds, listing its keyframes, extracting a subtitle. Each runs in a slot taken before
 * its process is spawned, at most `perServer` at once on this instance and `perUser` for one user;
 * with none free the job is refused at once (never queued: a queue of slow sources would hold every
 * later viewer). Conversions themselves are bounded by ./registry.ts, whose limits are checked
 * before a conversion's first probe.
 */
import { ConversionLimitError } from './registry';

/** 400 when the server reads as many films as it may at once (companion text). */
export const TOO_MANY_READS = 'the server is reading too many films at once, try again later';
/** 400 when one user has as many films read at once as one user may (companion text). */
export const TOO_MANY_USER_READS = 'too many of your films are being read at once, try again later';

/** At most this many jobs at once on one instance, by default (env `CONVERT_MAX_READS`). */
export const DEFAULT_READS_PER_SERVER = 4;
/** At most this many jobs at once for one user, by default (env `CONVERT_MAX_READS_PER_USER`). */
export const DEFAULT_READS_PER_USER = 2;

/** The limits: jobs at once on the server and for one user. */
export interface JobLimits {
  perServer: number;
  perUser: number;
}

/** See the module comment. */
export class JobLimiter {
  private running = 0;
  private readonly byUser = new Map<string, number>();

  constructor(readonly limits: JobLimits = { perServer: DEFAULT_READS_PER_SERVER, perUser: DEFAULT_READS_PER_USER }) {}

  /**
   * Runs `job` in a slot of `userId`'s (the caller spawns its process inside `job`) and frees the
   * slot when it settles. Rejects at once, without calling `job`, with ConversionLimitError
   * TOO_MANY_USER_READS or TOO_MANY_READS when no slot is free.
   */
  async run<T>(userId: string, job: () => Promise<T>): Promise<T> {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= this.limits.perUser) throw new ConversionLimitError(TOO_MANY_USER_READS);
    if (this.running >= this.limits.perServer) throw new ConversionLimitError(TOO_MANY_READS);
    this.running += 1;
    this.byUser.set(userId, mine + 1);
    try {
      return await job();
    } finally {
      this.running -= 1;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left > 0) this.byUser.set(userId, left);
      else this.byUser.delete(userId);
    }
  }
}
