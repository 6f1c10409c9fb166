import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * Rows a process owns while it works on them (an email claim, a download job): the owner is
 * "<pid>:<random>[:<identity>]", and another process may take the rows over only once that
 * owner is gone — never by age, so a slow process or a clock jump never loses its work to a
 * second one.
 */

/**
 * Who a process is, beyond its pid: the boot and the process's start time (Linux /proc), so a pid
 * reused after a reboot or by a later process is not taken for the owner. '' where unknown: on
 * Windows and macOS the start time is only reachable by running another program per check
 * (PowerShell, ps), too slow for a recovery that asks per claim, so there a reused pid keeps a
 * claim until that process ends — rows wait longer, never go out twice.
 */
export function processIdentity(pid: number): string {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return boot && start ? `${boot}.${start}` : '';
  } catch {
    return '';
  }
}

let ownIdentity: string | undefined;

/** A new owner token for this process: "<pid>:<random>[:<identity>]". */
export function newOwnerToken(): string {
  ownIdentity ??= processIdentity(process.pid);
  // randomUUID draws from a buffered pool: a claim per batch does not pay a call into the CSPRNG each time.
  const token = `${process.pid}:${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  return ownIdentity ? `${token}:${ownIdentity}` : token;
}

/**
 * An owner is alive while its pid answers signal 0 and, when the claim recorded the owner's
 * identity and this system can read the pid's, that identity is the same. When in doubt: alive
 * (rows kept too long wait for a restart; rows taken from a live owner are worked on twice).
 */
export function ownerAlive(token: string): boolean {
  const [pidText, , identity] = token.split(':');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid !== process.pid) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
    }
  }
  if (!identity) return true;
  const current = processIdentity(pid);
  return current === '' || current === identity;
}
