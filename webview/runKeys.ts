// What the panel's run keys do (panelKeys.ts listens for them). Pure: tested in Node.

/** What a key does to the run (undefined: not one of ours). Pure, for tests. */
export function runKey(key: string, shift: boolean, step: number, total: number, report: boolean): { goTo: number } | 'playPause' | undefined {
  switch (key) {
    case ' ':
      return report ? undefined : 'playPause';
    case 'ArrowLeft':
      return { goTo: Math.max(0, step - (shift ? 10 : 1)) };
    case 'ArrowRight':
      return { goTo: Math.min(total, step + (shift ? 10 : 1)) };
    case 'Home':
      return { goTo: 0 };
    case 'End':
      return { goTo: total };
    default:
      return undefined;
  }
}
