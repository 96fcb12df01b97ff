// The problems card: the scene's diagnostics by severity, repeats collapsed, with the JSON syntax
// errors VS Code's JSON service reports for the file (marked as its); each one reveals its range
// (and its constraint or body) in the scene file.
import { clear, h, icon } from '../dom';
import { groupDiagnostics, panelProblems } from '../selectors';
import { card, type CardContext } from './card';

export function createProblemsCard({ store, actions, report }: CardContext): HTMLElement {
  const list = h('ul', { class: 'cl-diags', 'aria-label': 'Diagnostics' });
  const count = h('span', { class: 'cl-count' });

  store.watch(
    (s) => [s.model?.diagnostics, s.model?.syntaxErrors],
    (_, s) => {
      if (!s.model) return;
      const { diagnostics: diags, syntax } = panelProblems(s.model);
      clear(list);
      count.textContent = String(diags.length);
      if (!diags.length) {
        list.append(h('li', { class: 'cl-empty', text: 'No problems found.' }));
        return;
      }
      for (const { d, n } of groupDiagnostics(diags)) {
        const sev = d.severity === 'information' ? 'info' : d.severity;
        const b = h(
          'button',
          { type: 'button', class: `cl-diag cl-diag-${sev}`, title: report ? d.message : 'Reveal in the scene file' },
          icon(sev === 'hint' ? 'info' : sev, `cl-icon cl-sev-${sev}`),
          h('span', { class: 'cl-diag-code', text: d.code }),
          h('span', { class: 'cl-diag-msg' }, ...richText(d.message)),
          h('span', { class: 'cl-diag-loc', text: `${n > 1 ? `×${n} · ` : ''}${syntax.has(d) ? 'JSON · ' : ''}Ln ${d.range.start.line + 1}` }),
        );
        if (syntax.has(d)) {
          b.classList.add('cl-diag-syntax');
          b.title = `${report ? d.message : 'Reveal in the scene file'} (a JSON syntax error: VS Code's JSON language service reports it in the Problems panel)`;
        }
        b.setAttribute('aria-label', `${d.severity} ${d.code}${syntax.has(d) ? ' (JSON syntax)' : ''}: ${d.message}, line ${d.range.start.line + 1}`);
        b.addEventListener('click', () => {
          const data = d.data ?? {};
          const ci = typeof data.constraintIndex === 'number' ? data.constraintIndex : typeof data.fileIndex === 'number' ? data.fileIndex : undefined;
          const bi = typeof data.bodyIndex === 'number' ? data.bodyIndex : undefined;
          actions.reveal({ range: d.range, constraintIndex: ci, bodyIndex: bi });
        });
        list.append(h('li', {}, b));
      }
    },
  );
  return card('diagnostics', 'Problems', [count], [list]);
}

/** Diagnostic messages use `backticks` for code: render them as <code>. */
function richText(s: string): (string | HTMLElement)[] {
  return s.split(/`([^`]*)`/g).map((part, i) => (i % 2 ? h('code', { text: part }) : part));
}
