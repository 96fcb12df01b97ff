// cannon-es (pure JavaScript) on the benchmark chain: N bodies with explicit inertia and no
// shapes, joined by point-to-point constraints; one fixed `world.step(dt)` per step.
//
// cannon-es's default broadphase (NaiveBroadphase) visits all N²/2 body pairs every step even when
// no body has a shape; the other peers have no collision work at all for this chain, so the world
// here gets a broadphase that reports no pairs (there are no shapes to collide).
import * as CANNON from 'cannon-es';
import { chainJointError, half, linkPosition, type ChainParams } from './chain';
import type { Peer, PeerChain } from './peer';
import { packageVersion } from './versions';

/** No shapes anywhere, so no pairs: skips the naive O(N²) pair loop. */
class NoPairsBroadphase extends CANNON.Broadphase {
  override collisionPairs(): void {
    // nothing can collide: no body has a shape
  }
}

function makeWorld(p: ChainParams): { world: CANNON.World; links: CANNON.Body[] } {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(...p.gravity) });
  world.broadphase = new NoPairsBroadphase();
  world.broadphase.setWorld(world);
  const h = half(p);
  const links: CANNON.Body[] = [];
  for (let k = 0; k < p.n; k++) {
    const b = new CANNON.Body({ mass: p.mass, position: new CANNON.Vec3(...linkPosition(p, k)), linearDamping: 0, angularDamping: 0, allowSleep: false });
    // No shape: set the inertia explicitly (cannon derives it from the shapes' bounding box otherwise).
    b.inertia.set(p.inertia, p.inertia, p.inertia);
    b.invInertia.set(1 / p.inertia, 1 / p.inertia, 1 / p.inertia);
    b.updateInertiaWorld(true);
    b.updateSolveMassProperties();
    world.addBody(b);
    links.push(b);
  }
  const pin = new CANNON.Body({ mass: 0, type: CANNON.Body.STATIC, position: new CANNON.Vec3(-h, 0, 0) });
  world.addBody(pin);
  world.addConstraint(new CANNON.PointToPointConstraint(pin, new CANNON.Vec3(0, 0, 0), links[0], new CANNON.Vec3(-h, 0, 0)));
  for (let k = 0; k + 1 < p.n; k++) {
    world.addConstraint(new CANNON.PointToPointConstraint(links[k], new CANNON.Vec3(h, 0, 0), links[k + 1], new CANNON.Vec3(-h, 0, 0)));
  }
  return { world, links };
}

export function loadCannonPeer(): Peer {
  const version = packageVersion('cannon-es') ?? '?';
  let settings: Record<string, unknown> = {};
  return {
    id: 'cannon',
    label: `cannon-es ${version}`,
    version: `cannon-es ${version} (JavaScript)`,
    describe: () =>
      'world.step(0.005) per step (one fixed step). N bodies (mass 1 kg, inertia diag 0.01 set explicitly, no shapes, ' +
      'no damping, no sleeping), one PointToPointConstraint per joint (link 0 to a static body at the pin), default ' +
      'GSSolver; broadphase replaced by one that reports no pairs (no shapes: the default visits N²/2 pairs)',
    settings: () => settings,
    make: (p): PeerChain => {
      let w = makeWorld(p);
      const solver = w.world.solver as CANNON.GSSolver;
      settings = { solver: 'GSSolver', iterations: solver.iterations, tolerance: solver.tolerance };
      return {
        reset: () => {
          w = makeWorld(p);
        },
        step: () => w.world.step(p.dt),
        jointError: () =>
          chainJointError(p, (k) => {
            const b = w.links[k];
            return { pos: [b.position.x, b.position.y, b.position.z], quatXyzw: [b.quaternion.x, b.quaternion.y, b.quaternion.z, b.quaternion.w] };
          }),
        tipZ: () => w.links[p.n - 1].position.z,
        lastStepInfo: () => ({ iterations: (w.world.solver as CANNON.GSSolver).iterations }),
        dispose: () => {
          // plain JavaScript objects: the garbage collector frees them
        },
      };
    },
  };
}
