import type { AdminUser } from '@inkwell/contract';

/** 1536 → "1.5 KB": storage as an operator reads it. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** "2026-03-05T10:00:12.345Z" → "2026-03-05 10:00" (UTC). */
const minute = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : 'never');

/** The accounts as a plain-text table for `npm run users -- list`. */
export function usersTable(users: AdminUser[]): string {
  if (users.length === 0) return 'No accounts yet.';
  const header = [
    'ID',
    'EMAIL',
    'NAME',
    'ROLE',
    'STATUS',
    'CREATED',
    'LAST SEEN',
    'FILES',
    'STORAGE',
    'PROMPTS TODAY',
  ];
  const rows = users.map((u) => [
    String(u.id),
    u.email,
    `${u.first_name} ${u.last_name}`.trim() || '-',
    u.role,
    u.disabled ? 'disabled' : 'active',
    minute(u.created_at),
    minute(u.last_seen_at),
    String(u.files),
    formatBytes(u.storage_bytes),
    String(u.prompts_today),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
