// Contact solvers (docs/formulas.md, "Contacts"): velocity-level projected Gauss–Seidel in Solfec's
// local-dynamics form, and Axion's nonlinear system solved by Newton's method.
export { stepNonlinear, newtonSolve, solveNewtonSystem, newtonCondition, type NewtonReport, type LinearMethod } from './newton';
export { NonlinearSystem, type NonlinearSettings, type BlockName, type BlockNorms, type BlockRange, type ColumnBlockName, type FrozenFriction } from './system';
export { solveContactsPgs, stepVelocity, integrate, packPositions, type VelocitySettings, type PgsReport, type PgsIsland } from './pgs';
export { defaultNonlinearSettings, defaultVelocitySettings, DEFAULT_FB, DEFAULT_NEWTON, DEFAULT_PGS, DEFAULT_REGULARIZATION, DEFAULT_RESTITUTION_THRESHOLD } from './settings';
export { classifyContact, openThreshold, SLIP_SPEED, CONE_BOUNDARY } from './forces';
export { contactRows, contactGap, type ContactRows } from './rigid';
export { fischerBurmeister, frictionW, frictionWDerivatives } from './ncp';
export { sparseLu, sparseLuSolve, sparseLuSolveTranspose, sparseLuNnz, type SparseLu } from '../linalg/sparseLu';
