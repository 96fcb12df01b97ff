// @mujoco/mujoco publishes its types only through package.json "exports", which the project's
// `moduleResolution: node` does not read; mujoco.ts describes the parts it uses itself.
declare module '@mujoco/mujoco' {
  const loadMujoco: (options?: unknown) => Promise<unknown>;
  export default loadMujoco;
}
