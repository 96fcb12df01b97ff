// The scene tree's items: state classification, icons (codicon + theme colour ids), labels and
// tooltips. Pure: no vscode (../tree.ts turns these into TreeItems).
import type { BodyReport, ConstraintReport, IslandReport, SystemSnapshot } from '../../engine/result';
import type { BodySpec, ConstraintSpec } from '../../engine/scene/types';
import { formatCond, formatNumber } from './format';

export type ItemState = 'ok' | 'redundant' | 'violated' | 'conflicting' | 'ill-conditioned' | 'fixed' | 'unknown';

export interface IconSpec {
  /** Codicon id for `new ThemeIcon(id, new ThemeColor(color))`. */
  id: string;
  color?: string;
}

export const STATE_ICONS: Record<ItemState, IconSpec> = {
  ok: { id: 'pass', color: 'testing.iconPassed' },
  redundant: { id: 'warning', color: 'list.warningForeground' },
  violated: { id: 'error', color: 'list.errorForeground' },
  conflicting: { id: 'error', color: 'list.errorForeground' },
  'ill-conditioned': { id: 'alert', color: 'list.warningForeground' },
  fixed: { id: 'lock', color: 'descriptionForeground' },
  unknown: { id: 'circle-outline', color: 'disabledForeground' },
};

/** The island (connected component) a constraint belongs to, if any. */
function islandOf(islands: readonly IslandReport[], constraint: string): IslandReport | undefined {
  return islands.find((i) => i.constraints.includes(constraint));
}

/**
 * A constraint's state: the engine's status (conflicting > violated > redundant), else
 * `ill-conditioned` when its island's κ is at or above the warning threshold.
 */
export function constraintState(c: ConstraintReport, snapshot: Pick<SystemSnapshot, 'islands'>, conditionWarning: number): ItemState {
  if (c.status === 'conflicting' || c.status === 'violated' || c.status === 'redundant') return c.status;
  const island = islandOf(snapshot.islands, c.name);
  if (island && island.rows > 0 && (island.cond === null || island.cond >= conditionWarning)) return 'ill-conditioned';
  return 'ok';
}

export function bodyState(b: Pick<BodyReport, 'fixed'> | Pick<BodySpec, 'fixed'>): ItemState {
  return b.fixed ? 'fixed' : 'ok';
}

const vec = (v: readonly number[]): string => `[${v.map(formatNumber).join(', ')}]`;

/** Markdown tooltip of a constraint (λ per row, |C|, |Ċ|, the island's κ). */
export function constraintTooltip(c: ConstraintReport, state: ItemState, snapshot: Pick<SystemSnapshot, 'islands' | 'rows'>): string {
  const labels = snapshot.rows.filter((r) => r.constraint === c.name).map((r) => r.label);
  const lambda = c.lambda.map((l, i) => `${labels[i] ?? `#${i}`} = ${formatNumber(l)}`).join(', ');
  const island = islandOf(snapshot.islands, c.name);
  const lines = [
    `**${escapeMd(c.name)}** · ${c.type} · ${state}`,
    `${escapeMd(c.bodyA)} ↔ ${escapeMd(c.bodyB)} · ${c.rows} row${c.rows === 1 ? '' : 's'}`,
    `λ: ${lambda || '—'}`,
    `|C| = ${formatNumber(c.violation)} · |Ċ| = ${formatNumber(c.velocityViolation)}`,
  ];
  if (island) lines.push(`island κ = ${island.condEstimated && island.cond !== null ? '~' : ''}${formatCond(island.cond)} · rank ${island.rank}/${island.rows}`);
  return lines.join('  \n');
}

export function constraintDescription(c: ConstraintReport): string {
  const l = c.lambda.length === 1 ? `λ ${formatNumber(c.lambda[0])}` : `λ‖${formatNumber(Math.hypot(...c.lambda))}‖`;
  return `${c.type} · ${l} · |C| ${formatNumber(c.violation)}`;
}

export function specDescription(c: Pick<ConstraintSpec, 'type' | 'bodyA' | 'bodyB'>): string {
  return `${c.type} · ${c.bodyA} ↔ ${c.bodyB}`;
}

export function bodyTooltip(b: BodyReport): string {
  return [
    `**${escapeMd(b.name)}**${b.fixed ? ' · fixed' : ''} · m = ${formatNumber(b.mass)}`,
    `p = ${vec(b.position)}`,
    `q = ${vec(b.orientation)}`,
    `v = ${vec(b.velocity)} · ω = ${vec(b.angularVelocity)}`,
  ].join('  \n');
}

export function bodyDescription(b: Pick<BodyReport, 'mass' | 'fixed'>): string {
  return b.fixed ? `fixed · m ${formatNumber(b.mass)}` : `m ${formatNumber(b.mass)}`;
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
