// What makes a row an item of the transcript tree: its role and level, and one tab stop for the
// whole tree (the focused row; the arrow keys move it).
export function treeItem(level: number, focused: boolean, onFocus: () => void) {
  return {
    role: 'treeitem',
    'aria-level': level,
    tabIndex: focused ? 0 : -1,
    'data-focus-target': '',
    onFocus,
  } as const;
}
