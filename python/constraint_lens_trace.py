"""Write a trace of your own solver for Constraint Lens (docs/traces.md): numpy only.

    from constraint_lens_trace import TraceWriter
    with TraceWriter("run.npz", dof_names=dofs) as trace:
        for k in range(steps):
            J, Minv, lam, rhs, C = my_solver_step()
            trace.step(J=J, Minv=Minv, lam=lam, rhs=rhs, C=C, row_names=names, t=k * dt)

Then `constraint-lens inspect run.npz` (or open run.npz in VS Code). Every step is stored under its
own keys (J_0, Minv_0, lambda_0 …), so the number of rows may change from step to step (contacts).
Give M instead of Minv when that is what your solver has. Nothing is written until close().
"""
import numpy as np

__all__ = ["TraceWriter"]


class TraceWriter:
    def __init__(self, path, dof_names=None, compressed=True):
        self.path = path
        self.compressed = compressed
        self.arrays = {}
        self.times = []
        if dof_names is not None:
            self.arrays["dof_names"] = np.asarray([str(n) for n in dof_names])

    @property
    def steps(self):
        return len(self.times)

    def step(self, J, Minv=None, M=None, lam=None, rhs=None, C=None, R=None, row_names=None, t=None):
        """Record one step: J (m×n), Minv or M (n×n), and optionally λ, the right-hand side b of
        (J·M⁻¹·Jᵀ + R)·λ = b, the violation C, a diagonal regularisation R (each m) and the row names."""
        if (Minv is None) == (M is None):
            raise ValueError("give exactly one of Minv and M")
        k = self.steps
        J = np.atleast_2d(np.asarray(J, dtype=np.float64))
        m, n = J.shape
        mass = np.asarray(Minv if Minv is not None else M, dtype=np.float64)
        if mass.shape != (n, n):
            raise ValueError(f"step {k}: J has {n} columns but the mass matrix is {mass.shape}")
        self.arrays[f"J_{k}"] = J
        self.arrays[f"{'Minv' if Minv is not None else 'M'}_{k}"] = mass
        for key, value in (("lambda", lam), ("rhs", rhs), ("C", C), ("R", R)):
            if value is not None:
                v = np.asarray(value, dtype=np.float64).reshape(-1)
                if v.shape != (m,):
                    raise ValueError(f"step {k}: {key} has {v.size} entries for {m} rows")
                self.arrays[f"{key}_{k}"] = v
        if row_names is not None:
            if len(row_names) != m:
                raise ValueError(f"step {k}: {len(row_names)} row names for {m} rows")
            self.arrays[f"row_names_{k}"] = np.asarray([str(r) for r in row_names])
        self.times.append(float(k if t is None else t))

    def close(self):
        self.arrays["t"] = np.asarray(self.times, dtype=np.float64)
        (np.savez_compressed if self.compressed else np.savez)(self.path, **self.arrays)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
