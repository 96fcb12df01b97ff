// Rapier (@dimforge/rapier3d-compat: the Rust engine compiled to WebAssembly, inlined as base64)
// on the benchmark chain: N dynamic rigid bodies with explicit mass properties and no colliders
// (so no collision detection), joined by spherical impulse joints; one `world.step()` per step.
import type * as RapierNs from '@dimforge/rapier3d-compat';
import { chainJointError, half, linkPosition, type ChainParams } from './chain';
import type { Peer, PeerChain } from './peer';
import { packageVersion } from './versions';

type Rapier = typeof RapierNs;

function makeWorld(R: Rapier, p: ChainParams): { world: RapierNs.World; links: RapierNs.RigidBody[] } {
  const world = new R.World({ x: p.gravity[0], y: p.gravity[1], z: p.gravity[2] });
  world.timestep = p.dt;
  const h = half(p);
  const I = { x: p.inertia, y: p.inertia, z: p.inertia };
  const links: RapierNs.RigidBody[] = [];
  for (let k = 0; k < p.n; k++) {
    const [x, y, z] = linkPosition(p, k);
    const desc = R.RigidBodyDesc.dynamic()
      .setTranslation(x, y, z)
      .setAdditionalMassProperties(p.mass, { x: 0, y: 0, z: 0 }, I, { x: 0, y: 0, z: 0, w: 1 })
      .setLinearDamping(0)
      .setAngularDamping(0)
      .setCanSleep(false);
    links.push(world.createRigidBody(desc));
  }
  // The world pin: a fixed body at the pin point, joined to link 0's −x end.
  const pin = world.createRigidBody(R.RigidBodyDesc.fixed().setTranslation(-h, 0, 0));
  world.createImpulseJoint(R.JointData.spherical({ x: 0, y: 0, z: 0 }, { x: -h, y: 0, z: 0 }), pin, links[0], true);
  for (let k = 0; k + 1 < p.n; k++) {
    world.createImpulseJoint(R.JointData.spherical({ x: h, y: 0, z: 0 }, { x: -h, y: 0, z: 0 }), links[k], links[k + 1], true);
  }
  return { world, links };
}

export async function loadRapierPeer(): Promise<Peer> {
  const R = (await import('@dimforge/rapier3d-compat')) as unknown as Rapier & { default?: Rapier };
  const rapier: Rapier = R.default ?? R;
  await rapier.init();
  let settings: Record<string, unknown> = {};
  return {
    id: 'rapier',
    label: `Rapier ${rapier.version()}`,
    version: `Rapier ${rapier.version()} (@dimforge/rapier3d-compat ${packageVersion('@dimforge/rapier3d-compat') ?? '?'}, WebAssembly)`,
    describe: () =>
      'world.step() per step. N dynamic bodies (explicit mass properties 1 kg, diag 0.01, no colliders → no collision ' +
      'detection, no damping, sleeping off), one spherical impulse joint per joint (link 0 to a fixed body at the pin), ' +
      'timestep 0.005, default solver settings (TGS-soft)',
    settings: () => settings,
    make: (p): PeerChain => {
      let w = makeWorld(rapier, p);
      const ip = w.world.integrationParameters;
      settings = { dt: ip.dt, numSolverIterations: ip.numSolverIterations, numInternalPgsIterations: ip.numInternalPgsIterations };
      return {
        reset: () => {
          w.world.free();
          w = makeWorld(rapier, p);
        },
        step: () => w.world.step(),
        jointError: () =>
          chainJointError(p, (k) => {
            const t = w.links[k].translation();
            const q = w.links[k].rotation();
            return { pos: [t.x, t.y, t.z], quatXyzw: [q.x, q.y, q.z, q.w] };
          }),
        tipZ: () => w.links[p.n - 1].translation().z,
        lastStepInfo: () => ({ iterations: w.world.integrationParameters.numSolverIterations }),
        dispose: () => w.world.free(),
      };
    },
  };
}
