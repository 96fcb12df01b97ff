// Solfec's W in 3×3 blocks per pair of local frames (the engine's analysis/wBlocks.ts), for the panel.
export { assembleWBlocks, wBlocks, type WBlock, type WBlocks, type WFrame } from '../engine';
