// Transitional re-exports: the panel's number formatting and κ bands are the shared presentation
// module's (src/shared). Same names as before so the panel's call sites compile unchanged; import
// from src/shared directly in new code.
import { COND_BAND_LABEL, csvField, exactNumber, formatCond, formatNumber, formatTime, formatVec, norm3 } from '../src/shared';

export { condBand, type CondBand } from '../src/shared';
export { formatNumber as fmt, exactNumber as fmtExact, formatTime as fmtTime, formatVec as fmtVec, csvField as csvCell, norm3 };
export const condBandLabel = COND_BAND_LABEL;
/** Shorter, for heatmap cells. */
export const fmtCell = (x: number): string => formatNumber(x, 3);
export const fmtCond = (k: number | null | undefined, estimated = false): string => formatCond(k, { estimated });
