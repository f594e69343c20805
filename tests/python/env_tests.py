"""quixo.env.QuixoEnv: the Gymnasium API (reset, step, action_masks, render) without Gymnasium."""
import numpy
import pytest

import quixo
import quixo.env


def play_random_episode(env, rng):
    observation, info = env.reset()
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.shape == (44,) and mask.any()
        assert (info["action_mask"] == mask).all()
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(
            numpy.flatnonzero(mask))))
        assert env.observation_space.contains(observation)
        total += reward
        steps += 1
        if terminated or truncated:
            return total, terminated, truncated, steps


def test_random_episodes_follow_the_api():
    env = quixo.env.QuixoEnv(opponent="random", seed=3)
    rng = numpy.random.default_rng(3)
    rewards = [play_random_episode(env, rng) for _ in range(30)]
    assert all(reward in (-1.0, 0.0, 1.0) for reward, *_ in rewards)
    assert any(reward == 1.0 for reward, *_ in rewards)
    assert any(reward == -1.0 for reward, *_ in rewards)
    assert all(terminated != truncated for _, terminated, truncated, _ in rewards)


def test_the_engine_beats_a_random_agent():
    env = quixo.env.QuixoEnv(opponent="engine", depth=2, seed=5)
    rng = numpy.random.default_rng(5)
    rewards = [play_random_episode(env, rng)[0] for _ in range(6)]
    assert rewards.count(-1.0) >= 5


def test_the_agent_as_o_sees_its_cubes_as_ones():
    env = quixo.env.QuixoEnv(opponent="random", agent_side="o", seed=1)
    observation, info = env.reset()
    assert info["agent"] == "o" and env.board.turn == 1
    assert observation.sum() == -1  # the opponent's (X's) first cube
    assert (observation == -env.board.to_array()).all()
    observation, *_ = env.step(int(numpy.flatnonzero(env.action_masks())[0]))
    assert (observation == -env.board.to_array()).all()  # X's cubes -1, the agent's +1


def test_illegal_actions_levels_callables_truncation_and_render():
    env = quixo.env.QuixoEnv(opponent=lambda board: board.legal_moves()[0], max_plies=4)
    env.reset(options={"position": "5/5/5/5/5 x"})
    with pytest.raises(ValueError):
        env.step(44)
    env.step(quixo.env.action_of("a1e1"))
    illegal = [i for i in range(44) if not env.action_masks()[i]]
    assert illegal
    with pytest.raises(ValueError):
        env.step(illegal[0])
    _, _, terminated, truncated, _ = env.step(int(numpy.flatnonzero(env.action_masks())[0]))
    assert truncated and not terminated  # four plies played
    text = env.render()
    assert text.splitlines()[0].startswith("5 ") and "a b c d e" in text
    level = quixo.env.QuixoEnv(opponent=3, seed=2)
    level.reset()
    level.step(int(numpy.flatnonzero(level.action_masks())[0]))
    with pytest.raises(ValueError):
        quixo.env.QuixoEnv(opponent=99)
    with pytest.raises(ValueError):
        quixo.env.QuixoEnv(opponent="nobody")
    with pytest.raises(ValueError):
        quixo.env.action_of("zz")


def test_a_finished_game_needs_reset_and_spaces_sample_legal_actions():
    env = quixo.env.QuixoEnv(opponent="random", seed=4)
    env.reset(options={"position": "xxxx1/5/5/5/5 x"})
    _, reward, terminated, _, _ = env.step(quixo.env.action_of("e1e5"))
    assert terminated and reward == 1.0
    with pytest.raises(RuntimeError):
        env.step(0)
    env.reset()
    action = env.action_space.sample(mask=env.action_masks().astype(numpy.int8))
    assert env.action_masks()[action]
