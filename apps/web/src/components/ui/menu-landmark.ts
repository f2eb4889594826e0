/**
 * Root-slot props for an MUI Menu, whose popup is portalled to the end of <body>, outside every
 * landmark (axe "region"). Naming the popup's root as a region makes it a landmark of its own;
 * rendering it inside the page instead would make MUI's modal manager hide the whole app, menu
 * included. Use as `slotProps={{ root: menuLandmark('…') }}`.
 */
export function menuLandmark(label: string) {
  return { role: 'region', 'aria-label': label } as const;
}
