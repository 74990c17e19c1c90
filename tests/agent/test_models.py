"""ActorCritic: step/unroll equivalence with resets for every kind, shapes, privileged isolation, entity
encoder weight sharing, gradients and initialisation; the activation and separate-value options, and
the default model against the one from before them."""

import numpy as np
import pytest
import torch
from torch import nn

from osrs_rl.agent import models
from osrs_rl.agent.models import KINDS, build_model, mingru_scan, train_dtype
from osrs_rl.runtime.spec import ObsSegment

# The privileged block sits between actor blocks, so the actor's columns are not one slice.
SEGMENTS = (ObsSegment("self", 5), ObsSegment("privileged", 3), ObsSegment("npcs", 4, slots=3),
            ObsSegment("relation", 2))
OBS = sum(s.size for s in SEGMENTS)          # 22
PRIV = slice(5, 8)
NPCS = slice(8, 20)
HEADS = (3, 1, 4)
HIDDEN = 32


def make(kind, seed=0, **kw):
    """A small model with fixed weights; biases made non-zero so tests exercise them too."""
    torch.manual_seed(seed)
    model = build_model(SEGMENTS, HEADS, kind=kind, hidden=HIDDEN, **kw)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "bias" in name:
                p.add_(0.1 * torch.randn_like(p))
            if name == "policy.weight":
                p.mul_(100)                  # initial logits are ~0: scale up so comparisons mean something
    return model


def segment(t, b, seed, reset_rate=0.25):
    """Random observations [T, B, OBS], a random start state per kind and resets [T, B] (some at t=0)."""
    g = torch.Generator().manual_seed(seed)
    obs = torch.randn(t, b, OBS, generator=g)
    reset = torch.rand(t, b, generator=g) < reset_rate
    reset[0, 0] = True
    return obs, reset, g


@pytest.mark.parametrize("kind", KINDS)
def test_unroll_equals_step_by_step_with_resets(kind):
    model = make(kind)
    t, b = 16, 6
    obs, reset, g = segment(t, b, seed=1)
    state0 = torch.rand(b, model.state_size, generator=g) * 2
    logits, value, final = model.unroll(obs, state0, reset)
    state = state0
    for i in range(t):
        step_logits, step_value, state = model.step(obs[i], state, reset[i])
        torch.testing.assert_close(logits[i], step_logits, atol=1e-5, rtol=1e-5, msg=f"logits differ at t={i}")
        torch.testing.assert_close(value[i], step_value, atol=1e-5, rtol=1e-5, msg=f"value differs at t={i}")
    torch.testing.assert_close(final, state, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("kind", ["lstm", "mingru"])
def test_resets_and_start_state_matter(kind):
    """Guards the equivalence test: a recurrent model's outputs do depend on resets and on state0."""
    model = make(kind)
    obs, reset, g = segment(12, 4, seed=2)
    state0 = torch.rand(4, model.state_size, generator=g)
    with_resets = model.unroll(obs, state0, reset)[0]
    assert not torch.allclose(with_resets, model.unroll(obs, state0, None)[0], atol=1e-4)
    assert not torch.allclose(with_resets, model.unroll(obs, torch.zeros_like(state0), reset)[0], atol=1e-4)


@pytest.mark.parametrize("kind", ["lstm", "mingru"])
def test_reset_in_step_is_a_fresh_start(kind):
    model = make(kind)
    obs = torch.randn(5, OBS)
    reset = torch.tensor([True, False, True, False, True])
    warm = torch.rand(5, model.state_size) + 0.5
    got = model.step(obs, warm, reset)
    fresh = model.step(obs, model.initial_state(5), None)
    for a, f in zip(got, fresh, strict=True):
        assert torch.equal(a[reset], f[reset])
        assert not torch.allclose(a[~reset], f[~reset])


def test_mingru_scan_equals_the_recurrence_over_a_long_segment():
    """The scan alone against the textbook loop, with larger pre-activations and many resets."""
    g = torch.Generator().manual_seed(3)
    t, b, h = 96, 4, 8
    k, p = torch.randn(t, b, h, generator=g) * 4, torch.randn(t, b, h, generator=g) * 4
    reset = torch.rand(t, b, generator=g) < 0.2
    h0 = torch.randn(b, h, generator=g)
    state, expected = h0, []
    for i in range(t):
        state = torch.where(reset[i, :, None], 0.0, state)
        z = torch.sigmoid(k[i])
        g_p = torch.where(p[i] >= 0, p[i] + 0.5, torch.sigmoid(p[i]))
        state = (1 - z) * state + z * g_p
        expected.append(state)
    torch.testing.assert_close(mingru_scan(k, p, h0, reset), torch.stack(expected), atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("entity_encoder", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_shapes(kind, entity_encoder):
    model = make(kind, entity_encoder=entity_encoder)
    expected_state = {"mlp": 0, "lstm": 2 * HIDDEN, "mingru": HIDDEN}[kind]
    state = model.initial_state(7)
    assert state.shape == (7, expected_state) and model.state_size == expected_state
    logits, value, new_state = model.step(torch.randn(7, OBS), state, torch.zeros(7, dtype=torch.bool))
    assert logits.shape == (7, sum(HEADS)) and value.shape == (7,) and new_state.shape == (7, expected_state)
    logits, value, final = model.unroll(torch.randn(3, 7, OBS), state, torch.zeros(3, 7, dtype=torch.bool))
    assert logits.shape == (3, 7, sum(HEADS)) and value.shape == (3, 7) and final.shape == (7, expected_state)
    with pytest.raises(ValueError, match=f"expected \\[B, {OBS}\\]"):
        model.step(torch.randn(7, OBS + 1), state)


@pytest.mark.parametrize("kind", KINDS)
def test_actor_never_sees_privileged_segments(kind):
    model = make(kind)
    obs, reset, _ = segment(6, 5, seed=4)
    state0 = model.initial_state(5)
    logits, value, final = model.unroll(obs, state0, reset)
    changed = obs.clone()
    changed[..., PRIV] = torch.randn_like(changed[..., PRIV]) * 10
    logits2, value2, final2 = model.unroll(changed, state0, reset)
    assert torch.equal(logits, logits2) and torch.equal(final, final2)
    assert not torch.allclose(value, value2)
    step_logits, step_value, _ = model.step(obs[0], state0)
    step_logits2, step_value2, _ = model.step(changed[0], state0)
    assert torch.equal(step_logits, step_logits2) and not torch.allclose(step_value, step_value2)
    # the actor's input width is the non-privileged columns only
    assert model.encoder.trunk[0].in_features == OBS - 3
    assert model.actor_segments == ("self", "npcs", "relation") and model.critic_segments == ("privileged",)


def test_without_privileged_names_the_actor_reads_everything():
    model = make("mlp", privileged=())
    obs = torch.randn(4, OBS)
    changed = obs.clone()
    changed[:, PRIV] += 5
    state = model.initial_state(4)
    assert not torch.allclose(model.step(obs, state)[0], model.step(changed, state)[0])


@pytest.mark.parametrize("kind", KINDS)
def test_entity_encoder_is_shared_across_slots(kind):
    model = make(kind, entity_encoder=True)
    obs, reset, _ = segment(5, 4, seed=5)
    out = model.unroll(obs, model.initial_state(4), reset)
    permuted = obs.clone()
    slots = permuted[..., NPCS].reshape(5, 4, 3, 4)
    permuted[..., NPCS] = slots[:, :, [2, 0, 1]].reshape(5, 4, 12)
    for a, b in zip(out, model.unroll(permuted, model.initial_state(4), reset), strict=True):
        torch.testing.assert_close(a, b, atol=1e-6, rtol=1e-6)
    # changing one slot's content does change the output: the slots are read, not ignored
    edited = obs.clone()
    edited[..., NPCS.start:NPCS.start + 4] += 3
    assert not torch.allclose(out[0], model.unroll(edited, model.initial_state(4), reset)[0])
    # one set of weights per entity segment, whatever its number of slots
    more_slots = tuple(ObsSegment(s.name, s.features, 9) if s.name == "npcs" else s for s in SEGMENTS)
    bigger = build_model(more_slots, HEADS, kind=kind, hidden=HIDDEN, entity_encoder=True)
    assert sum(p.numel() for p in bigger.parameters()) == sum(p.numel() for p in model.parameters())


@pytest.mark.parametrize("activation", ["relu", "tanh"])
@pytest.mark.parametrize("empty_slots", [False, True])
def test_entity_encoder_equals_its_definition_per_slot(activation, empty_slots):
    """The encoder runs all slots as one 2-D matmul and applies the last activation after the max over slots
    (exact for monotone activations); its output and gradients equal the definition: the shared net on each
    slot, then the max. With empty slots (the same features in two slots: a tie) the max credits one of them
    and the definition's amax both by halves: the weights' gradients are still the same."""
    torch.manual_seed(3)
    model = build_model(SEGMENTS, HEADS, hidden=HIDDEN, entity_encoder=True, activation=activation)
    enc = model.encoder
    obs = torch.randn(6, sum(seg.size for seg in enc.segments)) * 2      # the actor's columns
    if empty_slots:                     # the actor's columns: self (5), then the npcs' 3 slots of 4 features
        obs[:, 5 + 4:5 + 12] = -3.0     # slots 1 and 2 alike: tied wherever they hold the max
        obs[:3, 5:5 + 4] = -3.0         # and in rows 0-2 slot 0 too: all three tied
    got = enc(obs)
    parts, start = [], 0
    for seg in enc.segments:
        block = obs[:, start:start + seg.size]
        start += seg.size
        if seg.name in enc.entity_nets:
            block = torch.stack([enc.entity_nets[seg.name](block[:, i * seg.features:(i + 1) * seg.features])
                                 for i in range(seg.slots)], dim=1).amax(dim=1)
        parts.append(block)
    want = enc.trunk(torch.cat(parts, dim=-1))
    torch.testing.assert_close(got, want, atol=1e-6, rtol=1e-6)
    grads = torch.autograd.grad(got.square().sum(), list(enc.parameters()))
    wants = torch.autograd.grad(want.square().sum(), list(enc.parameters()))
    for a, b in zip(grads, wants, strict=True):
        torch.testing.assert_close(a, b, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("kind", KINDS)
def test_gradients_reach_every_parameter(kind):
    model = make(kind, entity_encoder=True)
    obs, reset, g = segment(8, 4, seed=6)
    state0 = torch.rand(4, model.state_size, generator=g)
    logits, value, final = model.unroll(obs, state0, reset)
    (logits.square().mean() + value.square().mean()).backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and torch.isfinite(p.grad).all(), name
        assert p.grad.abs().sum() > 0, f"no gradient reaches {name}"


def test_default_initialisation():
    torch.manual_seed(0)
    model = build_model(SEGMENTS, HEADS)
    assert model.kind == "mlp" and model.state_size == 0
    w = model.encoder.trunk[2].weight                     # square hidden layer: orthogonal with gain sqrt(2)
    torch.testing.assert_close(w @ w.T, 2.0 * torch.eye(w.shape[0]), atol=1e-4, rtol=0)
    pw = model.policy.weight                              # rows orthonormal, scaled by 0.01
    torch.testing.assert_close(pw @ pw.T, 1e-4 * torch.eye(pw.shape[0]), atol=1e-8, rtol=0)
    vw = model.value[2].weight
    torch.testing.assert_close((vw @ vw.T).squeeze(), torch.tensor(1.0))
    logits = model.step(torch.randn(64, OBS), model.initial_state(64))[0]
    assert logits.abs().max() < 0.2                       # near-uniform first policy


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="mlp, lstm, mingru"):
        build_model(SEGMENTS, HEADS, kind="transformer")
    with pytest.raises(ValueError, match="every observation segment is privileged"):
        build_model((ObsSegment("privileged", 3),), HEADS)
    with pytest.raises(ValueError, match="head_sizes"):
        build_model(SEGMENTS, (3, 0))


# ---- the issue-19 knobs: activation and a separate value encoder ---------------------------------------
def _kinds_of_module(model):
    return {type(m) for m in model.modules()}


@pytest.mark.parametrize("kind", KINDS)
def test_tanh_replaces_every_relu_and_keeps_the_initial_weights(kind):
    torch.manual_seed(0)
    relu = build_model(SEGMENTS, HEADS, kind=kind, hidden=HIDDEN, entity_encoder=True)
    torch.manual_seed(0)
    tanh = build_model(SEGMENTS, HEADS, kind=kind, hidden=HIDDEN, entity_encoder=True, activation="tanh")
    assert nn.ReLU in _kinds_of_module(relu) and nn.Tanh not in _kinds_of_module(relu)     # the default
    assert nn.Tanh in _kinds_of_module(tanh) and nn.ReLU not in _kinds_of_module(tanh)
    count = sum(isinstance(m, nn.ReLU) for m in relu.modules())
    assert count == sum(isinstance(m, nn.Tanh) for m in tanh.modules()) == 5    # 2 entity, 2 trunk, 1 value
    # same gains, same draws: only the nonlinearity differs
    for (name, a), (_, b) in zip(relu.named_parameters(), tanh.named_parameters(), strict=True):
        assert torch.equal(a, b), name
    obs = torch.randn(4, OBS)
    assert not torch.allclose(relu.step(obs, relu.initial_state(4))[1], tanh.step(obs, tanh.initial_state(4))[1])


def test_unknown_activation_is_refused_with_the_choices():
    with pytest.raises(ValueError, match=r"unknown activation 'gelu'; choose one of relu, tanh"):
        build_model(SEGMENTS, HEADS, activation="gelu")


def _grads(model, loss):
    model.zero_grad(set_to_none=True)
    loss.backward(retain_graph=True)
    return {name: p.grad is not None and bool(p.grad.abs().sum() > 0) for name, p in model.named_parameters()}


def test_a_separate_value_encoder_isolates_the_two_losses():
    model = make("mlp", entity_encoder=True, separate_value=True)
    obs, reset, _ = segment(6, 4, seed=7)
    logits, value, _ = model.unroll(obs, model.initial_state(4), reset)
    own = ("value_encoder.", "value.")
    value_reaches = _grads(model, value.square().mean())
    policy_reaches = _grads(model, logits.square().mean())
    assert any(n.startswith("value_encoder.entity_nets.") for n in value_reaches)
    for name in value_reaches:
        mine = name.startswith(own)
        assert value_reaches[name] == mine, f"the value loss {'misses' if mine else 'reaches'} {name}"
        assert policy_reaches[name] == (not mine), f"the policy loss {'reaches' if mine else 'misses'} {name}"
    # the guard: with the shared trunk the value loss does train the policy's encoder
    shared = make("mlp", entity_encoder=True)
    logits, value, _ = shared.unroll(obs, shared.initial_state(4), reset)
    reaches = _grads(shared, value.square().mean())
    assert all(reaches[n] for n in reaches if n.startswith("encoder."))


def test_a_separate_value_leaves_the_policy_and_privileged_columns_as_they_were():
    torch.manual_seed(0)
    shared = build_model(SEGMENTS, HEADS, hidden=HIDDEN, entity_encoder=True)
    torch.manual_seed(0)
    separate = build_model(SEGMENTS, HEADS, hidden=HIDDEN, entity_encoder=True, separate_value=True)
    own = dict(separate.named_parameters())
    for name, p in shared.named_parameters():
        if name.startswith(("encoder.", "policy.")):
            assert torch.equal(p, own[name]), name          # the same first policy with or without it
    # the value's encoder has the policy encoder's architecture
    assert [(n, p.shape) for n, p in separate.value_encoder.named_parameters()] == \
        [(n, p.shape) for n, p in separate.encoder.named_parameters()]
    obs = torch.randn(5, OBS)
    logits, value, _ = separate.step(obs, separate.initial_state(5))
    changed = obs.clone()
    changed[:, PRIV] += 5
    logits2, value2, _ = separate.step(changed, separate.initial_state(5))
    assert torch.equal(logits, logits2) and not torch.allclose(value, value2)   # privileged: still the value's


@pytest.mark.parametrize("kind", ["lstm", "mingru"])
def test_a_separate_value_is_refused_for_recurrent_kinds(kind):
    with pytest.raises(ValueError, match=f"separate_value needs kind 'mlp', not '{kind}'"):
        build_model(SEGMENTS, HEADS, kind=kind, separate_value=True)


# The parameters of the models built before the knobs existed (recorded from commit ff4ec40): with the
# knobs at their defaults a model has exactly these names and shapes, and the same initial values.
BEFORE_MLP = [
    ("encoder.entity_nets.npcs.0.weight", (8, 4)), ("encoder.entity_nets.npcs.0.bias", (8,)),
    ("encoder.entity_nets.npcs.2.weight", (8, 8)), ("encoder.entity_nets.npcs.2.bias", (8,)),
    ("encoder.trunk.0.weight", (32, 15)), ("encoder.trunk.0.bias", (32,)),
    ("encoder.trunk.2.weight", (32, 32)), ("encoder.trunk.2.bias", (32,)),
    ("policy.weight", (8, 32)), ("policy.bias", (8,)),
    ("value.0.weight", (32, 35)), ("value.0.bias", (32,)), ("value.2.weight", (1, 32)), ("value.2.bias", (1,)),
]
BEFORE_CORE = {
    "mlp": [],
    "lstm": [("core.lstm.weight_ih_l0", (128, 32)), ("core.lstm.weight_hh_l0", (128, 32)),
             ("core.lstm.bias_ih_l0", (128,)), ("core.lstm.bias_hh_l0", (128,))],
    "mingru": [("core.gates.weight", (64, 32)), ("core.gates.bias", (64,))],
}
# Not a byte digest: orthogonal init runs a QR whose last bits differ between CPUs (an AMD EPYC and an
# AVX-512 Xeon gave different SHA-256s of the same torch 2.13.0 model), so the initial values are read
# as two weighted sums, which any real change of the init moves by far more than the tolerance.
RECORDED_TORCH = "2.13.0"
same_torch = pytest.mark.skipif(not torch.__version__.startswith(RECORDED_TORCH),
                                reason=f"recorded with torch {RECORDED_TORCH}, this is {torch.__version__}")
BEFORE_FINGERPRINT = {  # init_fingerprint after torch.manual_seed(0); changing one changes the initial model
    "mlp": (-0.620198935750, -5.063871157486),
    "lstm": (-1.395397380455, 6.685583492608),
    "mingru": (15.721545976300, -1.883482743929),
}


def init_fingerprint(model: nn.Module) -> tuple[float, float]:
    """Every parameter's values against fixed random weights and against their position, in float64."""
    rng = np.random.default_rng(1234)        # numpy's generator: the same numbers on every machine
    by_noise = by_position = 0.0
    for p in model.parameters():
        v = p.detach().double().flatten().numpy()
        by_noise += float(v @ rng.standard_normal(v.size))
        by_position += float(v @ np.arange(1, v.size + 1)) / v.size
    return by_noise, by_position


def assert_fingerprint(model: nn.Module, recorded: tuple[float, float]) -> None:
    assert init_fingerprint(model) == pytest.approx(recorded, rel=1e-6, abs=1e-4)


@pytest.mark.parametrize("kind", KINDS)
def test_the_default_model_is_the_one_from_before_the_knobs(kind):
    torch.manual_seed(0)
    model = build_model(SEGMENTS, HEADS, kind=kind, hidden=HIDDEN, entity_encoder=True)
    expected = BEFORE_MLP[:8] + BEFORE_CORE[kind] + BEFORE_MLP[8:]
    assert [(n, tuple(v.shape)) for n, v in model.state_dict().items()] == expected
    assert model.value_encoder is None
    if torch.__version__.startswith(RECORDED_TORCH):
        assert_fingerprint(model, BEFORE_FINGERPRINT[kind])


@same_torch
def test_the_zulrah_preset_builds_the_model_from_before_the_knobs():
    """The issue-19 runs' model: the preset's config through make_model, as the trainer builds it."""
    from osrs_rl.agent.config import load_config
    from osrs_rl.agent.policy import make_model
    from osrs_rl.runtime.registry import get_spec
    cfg = load_config("zulrah")
    assert cfg.model.separate_value          # the preset's own critic (docs/results/zulrah.md)
    cfg.model.separate_value = False         # ... built after the policy's layers: those start as before
    torch.manual_seed(cfg.run.seed)
    model = make_model(cfg, get_spec("zulrah"))
    assert_fingerprint(model, (-17.827699059583, -2.178775660841))
    torch.manual_seed(cfg.run.seed)
    cfg.model.separate_value = True
    own = make_model(cfg, get_spec("zulrah"))
    shared = {n: v for n, v in model.state_dict().items() if not n.startswith("value.")}
    assert all(torch.equal(v, own.state_dict()[n]) for n, v in shared.items())


def test_muon_gets_the_hidden_layers_and_adamw_every_layer_that_reads_the_obs_or_writes_an_output():
    from osrs_rl.train.optim import param_assignment
    model = make("mlp", entity_encoder=True, separate_value=True)
    matrix = {row.name for row in param_assignment(model, model.edge_layers()) if row.group == "matrix"}
    hidden = {f"{enc}.{layer}.2.weight" for enc in ("encoder", "value_encoder")
              for layer in ("trunk", "entity_nets.npcs")}
    assert matrix == hidden                   # value.0 reads the privileged columns: an input layer too
    plain = make("mlp")
    assert {row.name for row in param_assignment(plain, plain.edge_layers()) if row.group == "matrix"} == \
        {"encoder.trunk.2.weight"}


# ---- train_precision: the update's encoders in bfloat16 ------------------------------------------------
def test_bfloat16_training_leaves_rollouts_float32_and_changes_only_the_update():
    """Without a gradient (rollouts, evaluation) a bfloat16 model computes exactly what the float32 one does;
    with one, its encoders run in bfloat16: outputs float32, close to float32's but not equal (so bfloat16 ran),
    and every parameter (float32) gets a finite gradient."""
    plain = make("mlp", entity_encoder=True, separate_value=True)
    half = make("mlp", entity_encoder=True, separate_value=True, train_precision="bfloat16")
    half.load_state_dict(plain.state_dict())
    obs, reset, _ = segment(8, 4, seed=11)
    state0 = plain.initial_state(4)
    with torch.no_grad():
        for a, b in zip(plain.unroll(obs, state0, reset), half.unroll(obs, state0, reset), strict=True):
            assert torch.equal(a, b)
        assert all(torch.equal(a, b) for a, b in zip(plain.step(obs[0], state0), half.step(obs[0], state0),
                                                     strict=True))
    want_logits, want_value, _ = plain.unroll(obs, state0, reset)
    logits, value, _ = half.unroll(obs, state0, reset)
    assert logits.dtype == value.dtype == torch.float32
    assert not torch.equal(logits, want_logits) and not torch.equal(value, want_value)
    scale = float(want_logits.detach().abs().max())
    torch.testing.assert_close(logits, want_logits, atol=0.02 * scale, rtol=0)
    torch.testing.assert_close(value, want_value, atol=0.02 * float(want_value.detach().abs().max()), rtol=0)
    (logits.square().mean() + value.square().mean()).backward()
    for name, p in half.named_parameters():
        assert p.dtype == torch.float32, name
        assert p.grad is not None and p.grad.dtype == torch.float32 and torch.isfinite(p.grad).all(), name


def test_an_unknown_precision_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="unknown train_precision 'float16'; choose one of float32, bfloat16, auto"):
        build_model(SEGMENTS, HEADS, train_precision="float16")


def test_the_entity_pool_is_the_same_with_and_without_a_gradient():
    """A rollout pools with amax (no indices to find), an update with max: the same numbers."""
    model = make("mlp", entity_encoder=True)
    obs, _, _ = segment(4, 6, seed=12)
    obs[..., NPCS.start + 4:NPCS.stop] = -3.0          # two empty slots alike: ties
    with torch.no_grad():
        rollout = model.unroll(obs, model.initial_state(6))
    update = model.unroll(obs, model.initial_state(6))
    for a, b in zip(rollout, update, strict=True):
        assert torch.equal(a, b.detach())


def test_auto_precision_is_bfloat16_only_where_the_device_has_it(monkeypatch):
    monkeypatch.setattr(models, "native_bfloat16", lambda device_type: device_type == "cuda")
    assert train_dtype("auto", "cuda") is torch.bfloat16 and train_dtype("auto", "cpu") is None
    assert train_dtype("bfloat16", "cpu") is torch.bfloat16 and train_dtype("float32", "cuda") is None
    obs, reset, _ = segment(4, 3, seed=13)
    plain = make("mlp", entity_encoder=True)
    auto = make("mlp", entity_encoder=True, train_precision="auto")
    assert torch.equal(plain.unroll(obs, plain.initial_state(3))[0], auto.unroll(obs, auto.initial_state(3))[0])
