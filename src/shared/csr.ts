// The CSR views and lookups live in the engine (src/engine/core/csr.ts), whose sparse kernels use
// them; re-exported here for the CLI and the panel.
export { absRange, blockDiagonalCsr, csrEntry, csrFind, csrGet, csrLowerBound, csrToDense, csrToDenseFlat, type CsrArrays, type CsrView } from '../engine';
