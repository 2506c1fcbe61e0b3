// Query keys of the export resource: the right to export, the admins' setting and the log.
// Changing the setting invalidates all three.

export const exportKeys = {
  all: ['export'] as const,
  canExport: (userId: string | undefined) => [...exportKeys.all, 'can', userId ?? ''] as const,
  settings: () => [...exportKeys.all, 'settings'] as const,
  log: () => [...exportKeys.all, 'log'] as const,
};
