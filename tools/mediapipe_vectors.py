#!/usr/bin/env python3
"""Golden vectors for tflc's built-in MediaPipe operators, from NumPy transcriptions of
MediaPipe's C++ kernels (google-ai-edge/mediapipe, mediapipe/util/tflite/operations/).

    python3 tools/mediapipe_vectors.py > compiler/src/lower/ops/mediapipe/vectors.json

Each case holds the operator's custom code, its options (the raw C struct as int32 fields,
or a FlexBuffer map's entries), its inputs (shape, data, whether constant) and the outputs
the transcription computes. The Rust tests (compiler/src/lower/ops/mediapipe/tests.rs) build
the single-op model from the case, run it through tflc's interpreter and generated-code
kernel, and compare. Every transcription keeps the C++'s loop order and float32 (or, where
the C++ promotes to double, float64) arithmetic, scalar by scalar, so the outputs are the
C++'s bits on an IEEE machine without FMA contraction.

Why not MediaPipe itself: its PyPI package (mediapipe 1.2.3) ships the kernels inside
tasks/c/libmediapipe.so, but exports only the task C API (MpImageEmbedderCreate, ...; no
TFLite interpreter, no op resolver), which runs whole task models with metadata, not these
single-op models.

Landmarks2TransformMatrix calls glibc's sinf, cosf and atan2f through ctypes (what
MediaPipe's `std::sin` etc. on floats are on Linux), so its vectors need a glibc host.

pip install numpy flatbuffers
"""
import json, math, sys
import numpy as np

f32 = np.float32
LOWEST, MAX = float(np.finfo(np.float32).min), float(np.finfo(np.float32).max)


def data(rng, shape, grid=None):
    """Deterministic float32 values; on a coarse grid when `grid` (ties on purpose)."""
    n = int(np.prod(shape))
    if grid:
        return (rng.integers(-grid, grid + 1, n) * 0.25).astype(np.float32)
    return rng.uniform(-2.0, 2.0, n).astype(np.float32)


# transpose_conv_bias.cc, TransposeConvBias (lines 37-116 at the time of writing) and
# Prepare/Eval's padding (`padding_size = max(0, filter - (in - 1) % stride - 1)`, the
# kernel's pad `padding_size / 2`, output `stride * (in - 1) + filter - padding_size`).
def transpose_conv_bias(x, xs, w, ws, b, padding, stride_w, stride_h):
    n, ih, iw, ic = xs
    oc, fh, fw, _ = ws
    ph = max(0, fh - (ih - 1) % stride_h - 1) if padding == 1 else 0
    pw = max(0, fw - (iw - 1) % stride_w - 1) if padding == 1 else 0
    oh, ow = stride_h * (ih - 1) + fh - ph, stride_w * (iw - 1) + fw - pw
    ph, pw = ph // 2, pw // 2
    X = x.reshape(xs); W = w.reshape(ws)
    out = np.zeros((n, oh, ow, oc), np.float32)
    for bb in range(n):
        for oy in range(oh):
            for ox in range(ow):
                for c in range(oc):
                    out[bb, oy, ox, c] = b[c]
        for iy in range(ih):
            for ix in range(iw):
                for ci in range(ic):
                    ox0, oy0 = ix * stride_w - pw, iy * stride_h - ph
                    for fy in range(fh):
                        for fx in range(fw):
                            for c in range(oc):
                                oxx, oyy = ox0 + fx, oy0 + fy
                                if 0 <= oxx < ow and 0 <= oyy < oh:
                                    out[bb, oyy, oxx, c] = f32(out[bb, oyy, oxx, c] + f32(X[bb, iy, ix, ci] * W[c, fy, fx, ci]))
    return [out]


def activation_range(act):  # CalculateActivationRange<float>
    return {1: (0.0, MAX), 2: (-1.0, 1.0), 3: (0.0, 6.0)}.get(act, (LOWEST, MAX))


def compute_padding(stride, in_size, filter_size, out_size):  # tflite::ComputePadding, dilation 1
    p = int(((out_size - 1) * stride + filter_size - in_size) / 2)  # C division truncates
    return p if p > 0 else 0


# max_pool_argmax.cc, Prepare (out size, ComputePadding) and MaxPoolArgmax (lines 37-95).
def max_pool_argmax(x, xs, padding, sw, sh, fw, fh, act):
    n, ih, iw, c = xs
    size = lambda i, f, s: (i + s - 1) // s if padding == 1 else (i - f + s) // s
    oh, ow = size(ih, fh, sh), size(iw, fw, sw)
    pad_h, pad_w = compute_padding(sh, ih, fh, oh), compute_padding(sw, iw, fw, ow)
    lo, hi = activation_range(act)
    X = x.reshape(xs)
    out = np.zeros((n, oh, ow, c), np.float32); idx = np.zeros((n, oh, ow, c), np.float32)
    for b in range(n):
        for oy in range(oh):
            for ox in range(ow):
                for ch in range(c):
                    x0, y0 = ox * sw - pad_w, oy * sh - pad_h
                    fx0, fx1 = max(0, -x0), min(fw, iw - x0)
                    fy0, fy1 = max(0, -y0), min(fh, ih - y0)
                    m, mx, my = f32(LOWEST), 0, 0
                    for fy in range(fy0, fy1):
                        for fx in range(fx0, fx1):
                            cur = X[b, y0 + fy, x0 + fx, ch]
                            if cur > m:
                                m, mx, my = cur, fx, fy
                    v = f32(lo) if m < f32(lo) else m   # std::max(x, lo)
                    v = f32(hi) if f32(hi) < v else v   # std::min(., hi)
                    out[b, oy, ox, ch] = v
                    idx[b, oy, ox, ch] = f32(f32(my * fw + mx) + f32(0.1))
    return [out, idx]


# max_unpooling.cc, Prepare (out = in * filter, ComputePadding(stride, 1, out, filter, in))
# and MaxUnpooling (lines 29-57).
def max_unpooling(x, xs, ind, padding, sw, sh, fw, fh, act):
    n, ih, iw, c = xs
    oh, ow = ih * fh, iw * fw
    pad_h, pad_w = compute_padding(sh, oh, fh, ih), compute_padding(sw, ow, fw, iw)
    X = x.reshape(xs); I = ind.reshape(xs)
    out = np.zeros((n, oh, ow, c), np.float32)
    for b in range(n):
        for iy in range(ih):
            for ix in range(iw):
                for ch in range(c):
                    i = int(I[b, iy, ix, ch])  # C truncation
                    mx, my = int(math.fmod(i, fw)), int(i / fw)
                    out[b, iy * sh - pad_h + my, ix * sw - pad_w + mx, ch] = X[b, iy, ix, ch]
    return [out]


def dot(l, x, y):  # DotProduct(l, (x, y, 0, 1)) in float, left to right
    return f32(f32(f32(f32(l[0] * x) + f32(l[1] * y)) + f32(l[2] * f32(0.0))) + f32(l[3] * f32(1.0)))


# transform_tensor_bilinear.cc, v2::TransformTensorBilinearV2 (the align-corners
# correction in double, `(1.0 - t) * a + t * b` with the left product in double).
def transform_tensor_bilinear(x, xs, m, out_shape):
    _, ih, iw, ic = xs
    _, oh, ow, oc = out_shape
    X = x.reshape(xs)
    xt = [f32(v) for v in m[0:4]]; yt = [f32(v) for v in m[4:8]]
    xt[3] = f32(float(xt[3]) + (float(xt[0]) * 0.5 + float(xt[1]) * 0.5 - 0.5))
    yt[3] = f32(float(yt[3]) + (float(yt[0]) * 0.5 + float(yt[1]) * 0.5 - 0.5))
    out = np.zeros(out_shape, np.float32)
    read = lambda h, w, z: f32(0.0) if h < 0 or w < 0 or h >= ih or w >= iw else X[0, h, w, z]
    for oy in range(oh):
        for ox in range(ow):
            tx, ty = dot(xt, f32(ox), f32(oy)), dot(yt, f32(ox), f32(oy))
            oob = tx < 0.0 or tx > f32(iw - 1) or ty < 0.0 or ty > f32(ih - 1)
            for z in range(oc):
                r = f32(0.0)
                if not oob:
                    fx, fy = math.floor(float(tx)), math.floor(float(ty))
                    q11, q21, q12, q22 = read(fy, fx, z), read(fy, fx + 1, z), read(fy + 1, fx, z), read(fy + 1, fx + 1, z)
                    rc, lc = f32(float(tx) - fx), f32(float(ty) - fy)
                    upper = f32((1.0 - float(rc)) * float(q11) + float(f32(rc * q21)))
                    lower = f32((1.0 - float(rc)) * float(q12) + float(f32(rc * q22)))
                    r = f32(float(f32(lc * lower)) + (1.0 - float(lc)) * float(upper))
                out[0, oy, ox, z] = r
    return [out]


# transform_landmarks.cc, v2::TransformLandmarksV2.
def transform_landmarks(x, xs, m):
    _, n, d = xs
    xt = [f32(v) for v in m[0:4]]; yt = [f32(v) for v in m[4:8]]
    X = x.reshape(n, d); out = np.zeros((n, d), np.float32)
    for l in range(n):
        out[l, 0] = dot(xt, X[l, 0], X[l, 1])
        out[l, 1] = dot(yt, X[l, 0], X[l, 1])
        if d == 3:
            out[l, 2] = X[l, 2]
    return [out.reshape(xs)]


def affine(angle, sx, sy, tx, ty):
    """A row-major 4x4 matrix: rotation by `angle`, scale, then shift."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([c * sx, -s * sy, 0, tx, s * sx, c * sy, 0, ty, 0, 0, 1, 0, 0, 0, 0, 1], np.float32)


_libm = None


def libm(name):
    """glibc's float function `name` (sinf, cosf, atan2f) through ctypes."""
    global _libm
    import ctypes
    if _libm is None:
        _libm = ctypes.CDLL("libm.so.6")
        for fn, n in (("sinf", 1), ("cosf", 1), ("atan2f", 2)):
            getattr(_libm, fn).restype = ctypes.c_float
            getattr(_libm, fn).argtypes = [ctypes.c_float] * n
    f = getattr(_libm, name)
    return lambda *a: f32(f(*[float(v) for v in a]))


def mat3_vec(m, v):  # Mat3::operator*(float3): sums from 0, left to right
    out = []
    for r in range(3):
        s = f32(0.0)
        for k in range(3):
            s = f32(s + f32(m[r * 3 + k] * v[k]))
        out.append(s)
    return out


def mat4_mul(t, o):  # Mat4::operator*=
    res = [f32(0.0)] * 16
    for r in range(4):
        for c in range(4):
            s = f32(0.0)
            for k in range(4):
                s = f32(s + f32(t[r * 4 + k] * o[k * 4 + c]))
            res[r * 4 + c] = s
    return res


# landmarks_to_transform_matrix.cc, v2: EstimateRotationRadians, EstimateCenterAndSize,
# LandmarksToTransformMatrixV2 (lines 325-420 at the time of writing).
def landmarks_to_transform_matrix(x, subset, left, right, target, out_h, out_w, scale_x, scale_y):
    sin, cos, atan2 = libm("sinf"), libm("cosf"), libm("atan2f")
    lm = lambda i: (x[i * 3], x[i * 3 + 1], x[i * 3 + 2])
    l, r_ = lm(left), lm(right)
    rot = f32(f32(target) - atan2(f32(r_[1] - l[1]), f32(r_[0] - l[0])))
    rot3 = lambda r: [cos(r), f32(-sin(r)), f32(0), sin(r), cos(r), f32(0), f32(0), f32(0), f32(1)]
    t_rot, t_inv = rot3(rot), rot3(f32(-rot))
    pts = []
    for a, b in subset:
        for i in (a, b):
            p = lm(i)
            pts.append(mat3_vec(t_rot, [p[0], p[1], f32(1.0)]))
    mx, mn = list(pts[0]), list(pts[0])
    for p in pts[1:]:
        if mx[0] < p[0]: mx[0] = p[0]
        if mx[1] < p[1]: mx[1] = p[1]
        if mn[0] > p[0]: mn[0] = p[0]
        if mn[1] > p[1]: mn[1] = p[1]
    cw, ch = f32(mx[0] - mn[0]), f32(mx[1] - mn[1])
    c = list(mn)
    c[0] = f32(c[0] + mx[0]); c[1] = f32(c[1] + mx[1])
    c[0] = f32(c[0] / f32(2)); c[1] = f32(c[1] / f32(2))
    c = mat3_vec(t_inv, c)
    one, zero = f32(1), f32(0)
    t = [one, zero, zero, zero, zero, one, zero, zero, zero, zero, one, zero, zero, zero, zero, one]
    t = mat4_mul(t, [one, zero, zero, c[0], zero, one, zero, c[1], zero, zero, one, zero, zero, zero, zero, one])
    r = f32(-rot)
    t = mat4_mul(t, [cos(r), f32(-sin(r)), zero, zero, sin(r), cos(r), zero, zero, zero, zero, one, zero, zero, zero, zero, one])
    sx = f32(f32(f32(scale_x) * cw) / f32(out_w))
    sy = f32(f32(f32(scale_y) * ch) / f32(out_h))
    t = mat4_mul(t, [sx, zero, zero, zero, zero, sy, zero, zero, zero, zero, one, zero, zero, zero, zero, one])
    shx, shy = f32(-1.0 * (out_w / 2.0)), f32(-1.0 * (out_h / 2.0))
    t = mat4_mul(t, [one, zero, zero, shx, zero, one, zero, shy, zero, zero, one, zero, zero, zero, zero, one])
    return [np.array(t, np.float32).reshape(1, 4, 4)]


def flex_map(entries):
    """A FlexBuffer map as a converter writes it (ints, floats, typed int vectors)."""
    import flatbuffers.flexbuffers as fb
    b = fb.Builder()
    with b.Map():
        for k, v in entries.items():
            b.Key(k)
            if isinstance(v, list):
                b.TypedVectorFromElements(v)
            elif isinstance(v, float):
                b.Float(v)
            else:
                b.Int(v)
    return list(bytes(b.Finish()))


def case(op, name, options, inputs, outputs, oracle, version=1):
    t = lambda a: [float(v) for v in np.asarray(a, np.float32).reshape(-1)]
    return {
        "op": op, "name": name, "options": options, "oracle": oracle, "version": version,
        "inputs": [{"shape": list(s), "data": t(d), "constant": c} for (s, d, c) in inputs],
        "outputs": [{"shape": list(o.shape), "data": t(o)} for o in outputs],
    }


def main():
    rng = np.random.default_rng(28)
    cases = []
    # Convolution2DTransposeBias: (input shape, filter OHWI shape, padding, stride w, h, extra
    # struct fields after the three MediaPipe reads).
    for i, (xs, ws, pad, sw, sh, extra) in enumerate([
        ((1, 3, 4, 2), (3, 3, 3, 2), 1, 2, 2, [0, 0]),
        ((1, 3, 4, 2), (3, 3, 3, 2), 2, 2, 2, []),
        ((2, 2, 3, 3), (4, 2, 2, 3), 1, 2, 1, [0, 0]),
        ((1, 4, 2, 1), (2, 1, 3, 1), 1, 1, 3, []),
        ((1, 1, 1, 2), (2, 2, 1, 2), 2, 2, 2, []),
        ((1, 2, 2, 2), (2, 4, 4, 2), 1, 2, 2, [0, 0]),  # even total padding 2: pad 1 each side
        ((1, 3, 3, 1), (1, 2, 2, 1), 0, 3, 3, []),      # padding 0 (unknown): VALID, as MediaPipe
    ]):
        x, w, b = data(rng, xs), data(rng, ws), data(rng, (ws[0],))
        outs = transpose_conv_bias(x, xs, w, ws, b, pad, sw, sh)
        cases.append(case("Convolution2DTransposeBias", f"tconv_bias_{i}", {"raw": [pad, sw, sh] + extra},
                          [(xs, x, False), (ws, w, True), ((ws[0],), b, True)], outs,
                          "numpy transcription of transpose_conv_bias.cc TransposeConvBias"))
    # MaxPoolingWithArgmax2D: (input shape, padding, stride w, h, filter w, h, activation).
    pool_cases = [
        ((1, 4, 4, 2), 2, 2, 2, 2, 2, 0),
        ((1, 5, 5, 3), 1, 2, 2, 3, 3, 0),
        ((2, 3, 4, 1), 1, 2, 1, 3, 2, 3),
        ((1, 4, 3, 2), 2, 1, 2, 2, 3, 1),
        ((1, 6, 5, 1), 1, 3, 2, 2, 2, 2),
        ((1, 3, 3, 2), 1, 1, 1, 3, 3, 0),
    ]
    for i, (xs, pad, sw, sh, fw, fh, act) in enumerate(pool_cases):
        x = data(rng, xs, grid=8)
        outs = max_pool_argmax(x, xs, pad, sw, sh, fw, fh, act)
        raw = [pad, sw, sh, fw, fh, act] + ([0, 0, 0, 0] if i % 2 == 0 else [])  # with TfLitePoolParams.computed, or without
        cases.append(case("MaxPoolingWithArgmax2D", f"max_pool_argmax_{i}", {"raw": raw}, [(xs, x, False)], outs,
                          "numpy transcription of max_pool_argmax.cc MaxPoolArgmax"))
    # MaxUnpooling2D on MaxPoolingWithArgmax2D's outputs (the pair as MediaPipe's models use it).
    for i, (xs, sw, sh, fw, fh) in enumerate([
        ((1, 4, 4, 2), 2, 2, 2, 2),
        ((2, 4, 6, 2), 3, 2, 3, 2),
        ((1, 5, 5, 1), 2, 2, 3, 3),  # overlapping windows: later writes win
    ]):
        x = data(rng, xs, grid=8)
        pooled, ind = max_pool_argmax(x, xs, 2 if i != 2 else 1, sw, sh, fw, fh, 0)
        ps = pooled.shape
        outs = max_unpooling(pooled.reshape(-1), ps, ind.reshape(-1), 2, sw, sh, fw, fh, 0)
        cases.append(case("MaxUnpooling2D", f"max_unpooling_{i}", {"raw": [2, sw, sh, fw, fh, 0, 0, 0, 0, 0]},
                          [(ps, pooled, False), (ps, ind, False)], outs,
                          "numpy transcription of max_unpooling.cc MaxUnpooling"))
    # TransformTensorBilinear (version 2): (image shape, output shape, matrix, matrix constant?).
    for i, (xs, os_, m, const) in enumerate([
        ((1, 6, 5, 3), (1, 4, 4, 3), affine(0.3, 1.2, 0.9, 1.0, 0.5), False),
        ((1, 5, 7, 2), (1, 8, 6, 2), affine(-0.7, 0.6, 0.55, 3.0, 1.0), True),   # points outside too
        ((2, 4, 4, 3), (1, 3, 5, 2), affine(0.0, 1.0, 1.0, 0.25, -0.5), False),  # batch 0, 2 of 3 channels
        ((1, 3, 3, 1), (1, 3, 3, 1), affine(0.0, 1.0, 1.0, 0.0, 0.0), True),     # the identity
    ]):
        x = data(rng, xs)
        outs = transform_tensor_bilinear(x, xs, m, os_)
        cases.append(case("TransformTensorBilinear", f"transform_tensor_bilinear_{i}",
                          {"flex": {"output_height": os_[1], "output_width": os_[2]}},
                          [(xs, x, False), ((1, 4, 4), m, const)], outs,
                          "numpy transcription of transform_tensor_bilinear.cc v2::TransformTensorBilinearV2", version=2))
    # TransformLandmarks (version 2): (landmarks shape, matrix, matrix constant?).
    for i, (xs, m, const) in enumerate([
        ((1, 5, 2), affine(0.4, 2.0, 1.5, -3.0, 7.0), False),
        ((1, 7, 3), affine(-1.1, 0.25, 0.5, 10.0, -2.0), True),
    ]):
        x = data(rng, xs) * np.float32(50.0)
        outs = transform_landmarks(x, xs, m)
        cases.append(case("TransformLandmarks", f"transform_landmarks_{i}", {}, [(xs, x, False), ((1, 4, 4), m, const)], outs,
                          "numpy transcription of transform_landmarks.cc v2::TransformLandmarksV2", version=2))
    # Landmarks2TransformMatrix (version 2): (landmarks shape, subset_idxs, left, right,
    # target rotation, output h, w, scale x, y).
    for i, (xs, subset_idxs, left, right, target, oh, ow, sx, sy) in enumerate([
        ((1, 6, 3), [0, 1, 2, 3, 4, 5], 0, 1, 0.0, 256, 256, 1.5, 1.5),
        ((1, 8, 3), [1, 7, 3, 0, 5], 2, 6, 1.5707964, 192, 128, 2.0, 1.25),   # odd count: the last paired with itself
        ((1, 5, 3), [4, 2], 3, 3, -0.5, 64, 64, 1.0, 1.0),                   # left == right: atan2(0, 0)
        ((1, 1, 12), [3, 0, 2], 1, 0, 0.25, 10, 30, 0.75, 3.0),              # 4 landmarks in a [1, 1, 12] tensor
    ]):
        x = (data(rng, xs) * np.float32(100.0) + np.float32(120.0)).astype(np.float32)
        pairs = [(subset_idxs[2 * k], subset_idxs[2 * k + 1]) for k in range(len(subset_idxs) // 2)]
        if len(subset_idxs) % 2:
            pairs.append((subset_idxs[-1], subset_idxs[-1]))
        outs = landmarks_to_transform_matrix(x, pairs, left, right, target, oh, ow, sx, sy)
        opts = {"subset_idxs": subset_idxs, "left_rotation_idx": left, "right_rotation_idx": right,
                "target_rotation_radians": target, "output_height": oh, "output_width": ow, "scale_x": sx, "scale_y": sy}
        cases.append(case("Landmarks2TransformMatrix", f"landmarks_to_transform_matrix_{i}", {"bytes": flex_map(opts)},
                          [(xs, x, False)], outs,
                          "numpy transcription of landmarks_to_transform_matrix.cc v2 with glibc sinf/cosf/atan2f", version=2))
    json.dump(cases, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
