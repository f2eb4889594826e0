import type { Db } from '../../db/database';
import { serviceUnavailable } from '../../lib/http-error';
import { filesRepo } from './files.repo';

/**
 * How an upload's quota reservation (its pending row) is told apart from one whose upload died.
 * The row's `created_at` is its last sign of life: a running upload refreshes it every
 * `heartbeatMs`, and a reservation not refreshed for `deadAfterMs` is dead. Dead ones no longer
 * count against the quota and are swept every `sweepEveryMs` by each app server.
 *
 * Why these bounds: a live upload refreshes its row four times within `deadAfterMs`, so to be
 * taken for dead its process must have stalled for some 45 s, or its clock differ from the
 * sweeping server's by as much (NTP keeps them within milliseconds). A server stalled that long
 * already fails its health checks. And if it happens anyway, nothing the user was told is saved
 * is lost: the upload then fails (finalizing a swept reservation is refused) and removes its
 * object. A dead reservation so blocks its bytes of quota for at most a minute, and is gone within
 * about two. (Before, reservations on shared storage were cleared only at a start-up, after an
 * hour.)
 */
export interface UploadLease {
  heartbeatMs: number;
  deadAfterMs: number;
  sweepEveryMs: number;
}

export const UPLOAD_LEASE: UploadLease = {
  heartbeatMs: 15_000,
  deadAfterMs: 60_000,
  sweepEveryMs: 60_000,
};

/** Reservations last refreshed before this are dead. */
export const deadBefore = (lease: UploadLease, now = Date.now()) =>
  new Date(now - lease.deadAfterMs).toISOString();

export const uploadInterrupted = () =>
  serviceUnavailable('The upload was interrupted. Please try again.');

/**
 * Keeps the reservation `id` (once known) alive while an upload runs. `onLost` is called when the
 * row is no longer a pending reservation (swept as dead): the upload must then stop.
 */
export function keepReservationAlive(
  db: Db,
  lease: UploadLease,
  reservation: Promise<{ id: number } | null>,
  onLost: (err: Error) => void,
) {
  let stopped = false;
  const timer = setInterval(() => {
    void reservation
      .then(async (r) => {
        if (!r || stopped) return;
        const refreshed = await filesRepo.touchReservation(db, r.id);
        if (!refreshed && !stopped) onLost(uploadInterrupted());
      })
      .catch(() => {}); // a failed reservation fails the upload by itself; a failed refresh retries
  }, lease.heartbeatMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
