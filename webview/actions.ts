// What the user can do in the panel: store actions plus their messages to the host. The cards
// call these; they never post or dispatch on their own.
import type { PanelSolver, PlaySpeed, Range, WebviewMessage } from '../src/protocol';
import type { Store } from './store';

export type SimCommand = Extract<WebviewMessage, { type: 'command' }>['command'];

export interface PanelActions {
  goToStep(step: number): void;
  /** Select a constraint (-1: none); `reveal` also shows it in the scene file. */
  select(index: number, reveal: boolean): void;
  showMatrix(id: string): void;
  toggleLog(): void;
  /** Select a body by name (undefined: none); `reveal` also shows it in the scene file and the Explorer tree. */
  selectBody(name: string | undefined, reveal: boolean): void;
  /** Show the selected body or constraint in the scene file (and the Explorer tree). */
  revealSelection(): void;
  /** A simulation command; Pause (playPause while running) stays on the shown step and names it to the host. */
  command(c: SimCommand): void;
  /** Play's speed for this scene. */
  playSpeed(speed: PlaySpeed): void;
  /** An imported model's solver (the header's switch): the other one runs from the initial state. */
  solver(solver: PanelSolver): void;
  reveal(target: { range?: Range; constraintIndex?: number; bodyIndex?: number }): void;
}

/**
 * `shown`: the step on screen, the one every card rendered in the last frame (frame.ts). A busy
 * page can apply a run's update and then handle a click that was waiting behind it before any
 * frame showed that update: Pause then names the step the user saw, not the one only the store has.
 */
export function createActions(store: Store, post: (m: WebviewMessage) => void, shown?: () => number): PanelActions {
  const revealSelection = (): void => {
    const s = store.getState();
    const c = s.snapshot?.constraints[s.selected];
    if (c) return post({ type: 'reveal', constraintIndex: c.fileIndex });
    const bodies = s.model?.sceneBodies ?? [];
    const i = bodies.findIndex((b) => b.name === s.selectedBody);
    if (i >= 0) post({ type: 'reveal', bodyIndex: bodies[i].fileIndex ?? i });
  };
  return {
    goToStep(step) {
      store.dispatch({ type: 'goToStep', step });
      // A step shown without asking the host for its snapshot is still the host's shown step: the
      // status bar, CodeLens and tree follow it as they follow a requested one.
      const s = store.getState();
      if (!s.report && s.model && s.wanted === undefined) post({ type: 'showStep', step: s.step });
    },
    select(index, reveal) {
      store.dispatch({ type: 'select', index });
      const s = store.getState();
      const c = s.snapshot?.constraints[s.selected];
      if (reveal && c) post({ type: 'reveal', constraintIndex: c.fileIndex });
    },
    showMatrix: (id) => store.dispatch({ type: 'showMatrix', id }),
    toggleLog: () => store.dispatch({ type: 'toggleLog' }),
    selectBody(name, reveal) {
      store.dispatch({ type: 'selectBody', name });
      if (reveal) revealSelection();
    },
    revealSelection,
    command: (command) => {
      const s = store.getState();
      if (command !== 'playPause' || !s.running) return post({ type: 'command', command });
      store.dispatch({ type: 'pause', step: shown?.() });
      post({ type: 'command', command, step: store.getState().step });
    },
    playSpeed: (speed) => post({ type: 'playSpeed', speed }),
    solver: (solver) => post({ type: 'solver', solver }),
    reveal: (t) => post({ type: 'reveal', ...t }),
  };
}
