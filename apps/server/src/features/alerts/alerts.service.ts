import {
  alertSeveritySchema,
  type AlertSeverity,
  type LatestAlertResponse,
} from '@inkwell/contract';
import type { Db } from '../../db/database';
import { alertsRepo } from './alerts.repo';

export async function latestAlert(db: Db): Promise<LatestAlertResponse> {
  const row = await alertsRepo.latest(db);
  if (!row) return { message: '', severity: 'info', isVisible: false };
  const severity = alertSeveritySchema.catch('info').parse(row.severity);
  return {
    message: row.message,
    severity,
    ...(row.title ? { title: row.title } : {}),
    isVisible: true,
  };
}

/** Shows a banner to every visitor (replacing any other); what `npm run alert` does. */
export async function setAlert(
  db: Db,
  alert: { message: string; severity: AlertSeverity; title?: string },
): Promise<LatestAlertResponse> {
  await alertsRepo.set(db, { ...alert, title: alert.title || undefined });
  return latestAlert(db);
}

export async function clearAlert(db: Db): Promise<LatestAlertResponse> {
  await alertsRepo.clear(db);
  return latestAlert(db);
}
