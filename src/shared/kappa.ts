// The κ bands live in the engine (src/engine/core/kappa.ts), whose findings name them; re-exported
// here for the presentation code.
export {
  COND_BAND_LABEL,
  DEFAULT_CONDITION_WARNING,
  WELL_CONDITIONED_BELOW,
  condBand,
  condBandDescription,
  condBandLegend,
  condThresholds,
  conditionWarning,
  formatCond,
  isIllConditioned,
  type CondBand,
  type CondContext,
  type CondFormat,
} from '../engine';
