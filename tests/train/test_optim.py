"""The optimizer builder, Aurora against torch.optim.Muon, state round trips and a tiny regression."""

import io

import pytest
import torch
from torch import nn

from osrs_rl.train.optim import (
    OPTIMIZERS,
    Aurora,
    MultiOptimizer,
    build_optimizer,
    leverage_uniform_polar,
    newton_schulz,
    param_assignment,
    set_lr,
)


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """These tensors are tiny: intra-op threads gain nothing, and on a loaded machine OpenMP's waiting
    threads made a step about 50x slower."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


class Net(nn.Module):
    """Every kind of parameter the split rule distinguishes: an input embedding, tall, wide and square
    hidden weights, a norm, an nn.Embedding and two output heads."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(6, 16)
        self.slots = nn.Embedding(4, 16)
        self.body = nn.Sequential(nn.Linear(16, 48), nn.ReLU(), nn.LayerNorm(48), nn.Linear(48, 16), nn.ReLU(),
                                  nn.Linear(16, 16), nn.Tanh())
        self.policy_head = nn.Linear(16, 3)
        self.value_head = nn.Linear(16, 1)

    def forward(self, x, slot):
        h = self.body(torch.relu(self.embed(x)) + self.slots(slot))
        return torch.cat([self.policy_head(h), self.value_head(h)], dim=-1)


def batch(seed=0, n=32):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 6, generator=g), torch.randint(0, 4, (n,), generator=g), torch.randn(n, 4, generator=g)


def train(model, opt, steps, seed=0):
    losses = []
    for i in range(steps):
        x, slot, y = batch(seed + i)
        loss = (model(x, slot) - y).square().mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


# ---- the split -------------------------------------------------------------------------------------------------------


def test_param_assignment_rule():
    groups = {row.name: row.group for row in param_assignment(Net())}
    assert groups == {
        "embed.weight": "adamw_decay", "embed.bias": "adamw_no_decay",
        "slots.weight": "adamw_decay",
        "body.0.weight": "matrix", "body.0.bias": "adamw_no_decay",
        "body.2.weight": "adamw_no_decay", "body.2.bias": "adamw_no_decay",
        "body.3.weight": "matrix", "body.3.bias": "adamw_no_decay",
        "body.5.weight": "matrix", "body.5.bias": "adamw_no_decay",
        "policy_head.weight": "adamw_decay", "policy_head.bias": "adamw_no_decay",
        "value_head.weight": "adamw_decay", "value_head.bias": "adamw_no_decay",
    }
    reasons = {row.name: row.reason for row in param_assignment(Net())}
    assert reasons["slots.weight"] == "nn.Embedding" and reasons["value_head.weight"] == "name contains 'head'"
    custom = {row.name: row.group for row in param_assignment(Net(), adamw_patterns=("body.5",))}
    assert custom["body.5.weight"] == "adamw_decay" and custom["embed.weight"] == "matrix"


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_every_parameter_in_exactly_one_group(name):
    model = Net()
    opt = build_optimizer(model, name, lr=1e-3, weight_decay=0.1)
    grouped = [p for group in opt.param_groups for p in group["params"]]
    assert len(grouped) == len({id(p) for p in grouped}) == len(list(model.parameters()))
    by_name = {group["name"]: group for group in opt.param_groups}
    assert by_name["adamw_no_decay"]["weight_decay"] == 0.0 and by_name["adamw_decay"]["weight_decay"] == 0.1
    if name == "adamw":
        assert set(opt.parts) == {"adamw"} and len(by_name["adamw_decay"]["params"]) == 7
    else:
        assert type(opt.parts[name]).__name__ == {"muon": "Muon", "aurora": "Aurora"}[name]
        assert [tuple(p.shape) for p in by_name["matrix"]["params"]] == [(48, 16), (16, 48), (16, 16)]


def test_unknown_name_lists_choices():
    with pytest.raises(ValueError, match="unknown optimizer 'sgd'; choices: adamw, muon, aurora"):
        build_optimizer(Net(), "sgd")


def test_lr_reaches_every_group_by_set_lr_and_torch_schedulers():
    opt = build_optimizer(Net(), "muon", lr=1e-3, matrix_lr_scale=2.0)
    set_lr(opt, 0.5)
    assert {g["name"]: g["lr"] for g in opt.param_groups} == {"matrix": 1.0, "adamw_decay": 0.5,
                                                               "adamw_no_decay": 0.5}
    assert opt.parts["muon"].param_groups[0]["lr"] == 1.0          # the parts see the same dicts
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: 0.1)
    assert [g["lr"] for g in opt.parts["adamw"].param_groups] == pytest.approx([0.05, 0.05])
    assert opt.parts["muon"].param_groups[0]["lr"] == pytest.approx(0.1)
    opt.step()
    sched.step()
    assert opt.parts["muon"].param_groups[0]["lr"] == pytest.approx(0.1)


# ---- Aurora ----------------------------------------------------------------------------------------------------------


def test_own_newton_schulz_equals_torch_muon_polar():
    # Muon's update from a zero momentum buffer with momentum 0 is lr * scale * polar(grad)
    for shape in ((32, 32), (48, 16), (16, 48)):
        w = nn.Parameter(torch.zeros(shape))
        w.grad = torch.randn(shape, generator=torch.Generator().manual_seed(1))
        torch.optim.Muon([w], lr=1.0, momentum=0.0, nesterov=False, weight_decay=0.0).step()
        scale = max(1.0, shape[0] / shape[1]) ** 0.5
        torch.testing.assert_close(w.detach(), -scale * newton_schulz(w.grad).float())


@pytest.mark.parametrize("nesterov", [True, False])
@pytest.mark.parametrize("adjust_lr_fn", [None, "match_rms_adamw"])
def test_aurora_equals_torch_muon_on_square_matrices(nesterov, adjust_lr_fn):
    gen = torch.Generator().manual_seed(0)
    w0 = torch.randn(24, 24, generator=gen)
    grads = [torch.randn(24, 24, generator=gen) for _ in range(4)]
    results = []
    for cls in (torch.optim.Muon, Aurora):
        w = nn.Parameter(w0.clone())
        opt = cls([w], lr=0.02, weight_decay=0.1, momentum=0.9, nesterov=nesterov, adjust_lr_fn=adjust_lr_fn)
        for g in grads:
            w.grad = g.clone()
            opt.step()
        results.append(w.detach())
    assert not torch.equal(results[1], w0)
    torch.testing.assert_close(results[1], results[0], rtol=0, atol=1e-6)


def uneven_tall(rows=96, cols=24, seed=0):
    """A gradient whose rows differ in scale by 100x: Muon's update then starves the small rows."""
    g = torch.Generator().manual_seed(seed)
    return torch.randn(rows, cols, generator=g) * torch.logspace(-1, 1, rows)[:, None]


def row_norm_spread(u):
    norms = u.float().norm(dim=1)
    return (norms.max() / norms.min()).item()


def test_aurora_rows_more_uniform_than_muon_on_tall_matrices():
    grad = uneven_tall()
    updates = {}
    for cls in (torch.optim.Muon, Aurora):
        w = nn.Parameter(torch.zeros(grad.shape))
        w.grad = grad.clone()
        cls([w], lr=1.0, weight_decay=0.0).step()
        updates[cls.__name__] = -w.detach()
    assert updates["Aurora"].shape == grad.shape
    assert row_norm_spread(updates["Muon"]) > 10.0
    assert row_norm_spread(updates["Aurora"]) < 1.15
    # with all rows equal and U^T U ~ I, each squared row norm is ~ cols / rows before the sqrt(rows / cols)
    # aspect-ratio scale, ~1 after it
    assert updates["Aurora"].norm(dim=1).mean().item() == pytest.approx(1.0, rel=0.2)


def test_leverage_uniform_polar_stays_near_orthogonal():
    grad = uneven_tall()
    muon_sv = torch.linalg.svdvals(newton_schulz(grad).float())
    aurora_sv = torch.linalg.svdvals(leverage_uniform_polar(grad).float())
    # the quintic leaves singular values in about [0.7, 1.2]; Aurora's must stay in the same band
    assert 0.6 < muon_sv.min() and muon_sv.max() < 1.25
    assert 0.6 < aurora_sv.min() and aurora_sv.max() < 1.25
    more_iterations = [row_norm_spread(leverage_uniform_polar(grad, iterations=k)) for k in (1, 2, 3)]
    assert more_iterations[0] > more_iterations[1] > more_iterations[2]


def test_aurora_wide_is_the_transpose_of_tall_and_square_is_muon():
    grad = uneven_tall()
    assert torch.equal(leverage_uniform_polar(grad.T), leverage_uniform_polar(grad).T)
    square = torch.randn(16, 16, generator=torch.Generator().manual_seed(2))
    assert torch.equal(leverage_uniform_polar(square), newton_schulz(square))
    assert torch.equal(leverage_uniform_polar(grad, iterations=0), newton_schulz(grad))


def test_zero_rows_stay_zero_and_finite():
    grad = uneven_tall()
    grad[5] = 0.0
    u = leverage_uniform_polar(grad, iterations=30)
    assert torch.isfinite(u).all() and (u[5] == 0).all()
    assert row_norm_spread(torch.cat([u[:5], u[6:]])) < 1.15


def test_aurora_rejects_bad_input():
    with pytest.raises(ValueError, match=r"only 2-D parameters, got one of shape \(3,\)"):
        Aurora([nn.Parameter(torch.zeros(3))])
    with pytest.raises(ValueError, match="pp_beta must be in"):
        Aurora([nn.Parameter(torch.zeros(3, 3))], pp_beta=0.0)
    with pytest.raises(ValueError, match="adjust_lr_fn must be one of"):
        Aurora([nn.Parameter(torch.zeros(3, 3))], adjust_lr_fn="bogus")


# ---- state round trip and learning -----------------------------------------------------------------------------------


def fresh(name):
    torch.manual_seed(0)
    model = Net()
    return model, build_optimizer(model, name, lr=1e-2, weight_decay=0.01)


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_state_dict_round_trip_continues_identically(name):
    model, opt = fresh(name)
    train(model, opt, 6)
    straight = [p.detach().clone() for p in model.parameters()]

    model, opt = fresh(name)
    train(model, opt, 3)
    buf = io.BytesIO()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, buf)
    buf.seek(0)
    saved = torch.load(buf)
    model, opt = fresh(name)
    model.load_state_dict(saved["model"])
    opt.load_state_dict(saved["opt"])
    assert torch.equal(opt.param_groups[0]["params"][0], next(iter(opt.parts.values())).param_groups[0]["params"][0])
    train(model, opt, 3, seed=3)
    for a, b in zip(straight, model.parameters(), strict=True):
        assert torch.equal(a, b.detach())


def test_load_state_dict_with_other_parts_is_refused():
    _, muon = fresh("muon")
    _, adamw = fresh("adamw")
    with pytest.raises(ValueError, match=r"state has parts \['adamw', 'muon'\], this optimizer has \['adamw'\]"):
        adamw.load_state_dict(muon.state_dict())


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_each_optimizer_fits_a_tiny_regression(name):
    # bias-free and no AdamW name patterns: for muon and aurora every weight is the matrix optimizer's
    def mlp():
        return nn.Sequential(nn.Linear(8, 32, bias=False), nn.Tanh(), nn.Linear(32, 32, bias=False), nn.Tanh(),
                             nn.Linear(32, 4, bias=False))

    torch.manual_seed(1)
    teacher, model = mlp(), mlp()
    x = torch.randn(256, 8)
    with torch.no_grad():
        y = teacher(x)
    opt = build_optimizer(model, name, lr=1e-2, adamw_patterns=())
    assert isinstance(opt, MultiOptimizer) and list(opt.parts) == [name]
    losses = []
    for _ in range(100):
        loss = (model(x) - y).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.05 * losses[0]   # measured: about 0.005 for each of the three
