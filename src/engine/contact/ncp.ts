// NCP functions of the nonlinear contact system (Axion): the scaled Fischer–Burmeister function
// and the fixed-point friction compliance W. Formulas in docs/formulas.md, "Contacts".

/**
 * Scaled Fischer–Burmeister function φ(a, b) = α·a + β·b − √(α²a² + β²b²) (zero ⇔ a ≥ 0, b ≥ 0,
 * a·b = 0) and its partial derivatives, written to out = [φ, ∂φ/∂a, ∂φ/∂b]. At the kink (0, 0) the
 * element (α(1 − 1/√2), β(1 − 1/√2)) of Clarke's generalised gradient is returned.
 */
export function fischerBurmeister(a: number, b: number, alpha: number, beta: number, out: Float64Array): void {
  const sa = alpha * a;
  const sb = beta * b;
  const r = Math.hypot(sa, sb);
  out[0] = sa + sb - r;
  if (r > 0) {
    out[1] = alpha * (1 - sa / r);
    out[2] = beta * (1 - sb / r);
  } else {
    out[1] = alpha * (1 - Math.SQRT1_2);
    out[2] = beta * (1 - Math.SQRT1_2);
  }
}

/** Upper bound of W as a multiple of the contact's tangential inverse mass r. */
export const W_MAX_FACTOR = 1e8;

const fbTmp = new Float64Array(3);

/**
 * Axion's fixed-point friction compliance (the seed's W, scaled by the tangential effective inverse
 * mass r so that both arguments of the NCP function are velocities):
 *   s = ‖J_f·u‖,  g = μ·λ_n − ‖λ_f‖,  φ_f = φ_FB(s, r·g)  (α = β = 1)
 *   W = (s − φ_f) / (‖λ_f‖ + φ_f / r),  clamped to [0, W_MAX_FACTOR·r].
 * A fixed point of h_f = J_f·u + W·λ_f = 0 with finite W ≥ 0 satisfies φ_f = 0, i.e. Coulomb's law
 * with maximal dissipation: either s = 0 and ‖λ_f‖ ≤ μλ_n (stick) or ‖λ_f‖ = μλ_n and λ_f ∥ −J_f·u
 * (slip). A vanishing or negative denominator gives the upper bound.
 */
export function frictionW(s: number, lf: number, muLn: number, r: number): number {
  const g = muLn - lf;
  fischerBurmeister(s, r * g, 1, 1, fbTmp);
  const phi = fbTmp[0];
  const den = lf + phi / r;
  const wMax = W_MAX_FACTOR * r;
  if (!(den > 0)) return wMax;
  const W = (s - phi) / den;
  if (!(W >= 0)) return 0;
  return W > wMax ? wMax : W;
}

/**
 * W and its partial derivatives for the exact Newton linearisation of h_f = J_f·u + W·λ_f:
 * out = [W, ∂W/∂s, ∂W/∂L, ∂W/∂g] with L = ‖λ_f‖ and g = μλ_n − L taken as independent arguments
 * (so dW/d‖λ_f‖ = ∂W/∂L − ∂W/∂g and dW/dλ_n = μ·∂W/∂g). Where W is clamped the derivatives are 0.
 */
export function frictionWDerivatives(s: number, lf: number, muLn: number, r: number, out: Float64Array): void {
  const g = muLn - lf;
  fischerBurmeister(s, r * g, 1, 1, fbTmp);
  const phi = fbTmp[0], pa = fbTmp[1], pb = fbTmp[2];
  const D = lf + phi / r;
  const Nn = s - phi;
  const wMax = W_MAX_FACTOR * r;
  out[1] = out[2] = out[3] = 0;
  if (!(D > 0)) {
    out[0] = wMax;
    return;
  }
  const W = Nn / D;
  if (!(W >= 0)) {
    out[0] = 0;
    return;
  }
  if (W > wMax) {
    out[0] = wMax;
    return;
  }
  out[0] = W;
  const D2 = D * D;
  out[1] = ((1 - pa) * D - (Nn * pa) / r) / D2;
  out[2] = -Nn / D2;
  out[3] = (-pb * (r * D + Nn)) / D2;
}
