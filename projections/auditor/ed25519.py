"""Ed25519 signature verification (RFC 8032 section 5.1), written again from the RFC with the
standard library only: the one the outside auditor checks the arbiters' rulings with
(`rulings.py`) and the checkpoint checker checks the audit log's checkpoints with
(`checkpoint.py`, docs/verify_checkpoint.py).

Verification only, with the cofactored equation [8][S]B = [8]R + [8][k]A and S < L refused
otherwise (docs/audit-log.md): it agrees with the `cryptography` library on valid and tampered
signatures, and can differ from it only on signatures crafted with small-order points.
"""

from __future__ import annotations

import hashlib

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
Point = tuple[int, int, int, int]   # extended homogeneous coordinates (X, Y, Z, T)


def _add(a: Point, b: Point) -> Point:
    """Section 5.1.4: the sum of two points (complete formulas, any two points)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = t1 * 2 * D * t2 % P
    dd = z1 * 2 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _times(k: int, point: Point) -> Point:
    """k·point by doubling and adding, lowest bit first."""
    result: Point = (0, 1, 1, 0)   # the neutral element
    while k:
        if k & 1:
            result = _add(result, point)
        point = _add(point, point)
        k >>= 1
    return result


def _equal(a: Point, b: Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def _decode_point(encoded: bytes) -> Point | None:
    """Section 5.1.3: a point from its 32 bytes, None when they encode no point."""
    if len(encoded) != 32:
        return None
    number = int.from_bytes(encoded, "little")
    x_0, y = number >> 255, number & ((1 << 255) - 1)
    if y >= P:
        return None
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P == 0:
        pass
    elif (v * x * x + u) % P == 0:
        x = x * SQRT_M1 % P
    else:
        return None
    if x == 0 and x_0 == 1:
        return None
    if x % 2 != x_0:
        x = P - x
    return (x, y, 1, x * y % P)


BASE = _decode_point((4 * pow(5, P - 2, P) % P).to_bytes(32, "little"))


def ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Section 5.1.7: whether `signature` (64 bytes) is `public`'s (32 bytes) signature of
    `message`: [8][S]B = [8]R + [8][k]A, k = SHA-512(R || A || message) mod L."""
    if len(public) != 32 or len(signature) != 64 or BASE is None:
        return False
    a, r = _decode_point(public), _decode_point(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % L
    left = _times(8 * s, BASE)
    right = _times(8, _add(r, _times(k, a)))
    return _equal(left, right)
