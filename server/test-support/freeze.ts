/**
 * Freezing a server as an operator's stuck host does (SIGSTOP) and thawing it (SIGCONT), with every
 * process under it: PostgreSQL serves each connection from a child of its postmaster, so stopping the
 * postmaster alone would leave the open connections answering. Linux only (reads /proc).
 */
import fs from 'node:fs';

/** `pid` and every process below it (children, their children…), from /proc. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // The process ended meanwhile.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

/** Stops `pid` and everything below it (SIGSTOP); returns the function that lets them go on (SIGCONT). */
export function freeze(pid: number): () => void {
  const tree = processTree(pid);
  for (const each of tree) process.kill(each, 'SIGSTOP');
  return () => {
    for (const each of tree) {
      try {
        process.kill(each, 'SIGCONT');
      } catch {
        // Gone meanwhile.
      }
    }
  };
}
