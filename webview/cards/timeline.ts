// The timeline: a step slider over the run, the shown step and time, and a note while the
// matrices are not those of the shown step (loading, or the nearest embedded in a report).
import { h } from '../dom';
import { formatTime as fmtTime } from '../../src/shared';
import { shownTime, stepNote } from '../selectors';
import { caps, type CardContext } from './card';

export function createTimeline({ store, actions }: CardContext): HTMLElement {
  const slider = h('input', { type: 'range', min: 0, max: 0, step: 1, value: 0, class: 'cl-slider', id: 'cl-step-slider', 'aria-label': 'Step (timeline)' });
  slider.addEventListener('input', () => actions.goToStep(Number(slider.value)));
  const out = h('output', { class: 'cl-step-out', for: 'cl-step-slider' });
  const note = h('span', { class: 'cl-step-note', role: 'status' });

  store.watch(
    (s) => [s.model ? s.total : 0, s.step],
    ([n, step]) => {
      slider.max = String(n);
      slider.disabled = n === 0;
      slider.value = String(Math.min(step, n));
      slider.setAttribute('aria-valuetext', `step ${step} of ${n}`);
    },
  );
  store.watch(
    (s) => [s.model, s.snapshot, s.step, s.loading, s.wanted],
    (_, s) => {
      if (!s.model || !s.snapshot) return;
      out.textContent = `step ${s.step} · ${fmtTime(shownTime(s))}`;
      const text = stepNote(s);
      note.textContent = text;
      note.classList.toggle('cl-visible', text !== '');
    },
  );
  return h('div', { class: 'cl-timeline' }, h('label', { class: 'cl-timeline-label', for: 'cl-step-slider', text: caps('Timeline') }), slider, out, note);
}
