import { alertSeveritySchema, type LatestAlertResponse } from '@inkwell/contract';
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
