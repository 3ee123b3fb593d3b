"""The Ray driver's chunk book: every candidate answered once, lost ones sent again alone,
a candidate lost twice given up as ``error`` (no Ray needed)."""

from __future__ import annotations

from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.ray_chunks import ChunkBook
from automock.sandbox.batch.task import sample_seed


def _cands(n: int, test: str | None = None) -> list[Candidate]:
    return [Candidate(f"t/{i % 2}", i, f"print({i})", test) for i in range(n)]


def test_chunks_cover_every_candidate_once_then_the_book_is_finished() -> None:
    book = ChunkBook(_cands(10), 4)
    sent = []
    while (chunk := book.next_chunk()) is not None:
        sent.append([c.index for c, _ in chunk.items])
        book.done(chunk.number)
    assert sent == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert book.finished()


def test_a_lost_chunk_goes_out_again_whole_and_a_twice_lost_candidate_alone() -> None:
    book = ChunkBook(_cands(6), 3)
    first = book.next_chunk()
    assert first is not None and not book.lost(first.number, "node died", batch_seed=0)
    again = book.next_chunk()  # lost once: among others, as before (no parallelism lost)
    assert again is not None and [c.index for c, _ in again.items] == [0, 1, 2]
    assert not book.lost(again.number, "node died", batch_seed=0)
    alone = [book.next_chunk() for _ in range(3)]  # lost twice: each alone, to find a culprit
    assert [[c.index for c, _ in ch.items] for ch in alone if ch] == [[0], [1], [2]]
    assert not book.finished() and book.owed() == 3


def test_a_candidate_lost_alone_after_a_loss_ends_error_with_the_reason() -> None:
    book = ChunkBook(_cands(2), 2)
    first = book.next_chunk()
    assert first is not None
    book.lost(first.number, "node died", batch_seed=5)
    both = book.next_chunk()
    assert both is not None and len(both.items) == 2
    book.lost(both.number, "node died", batch_seed=5)
    alone = book.next_chunk()
    assert alone is not None and len(alone.items) == 1
    (given_up,) = book.lost(alone.number, "ActorDiedError: killed", batch_seed=5)
    assert (given_up.task_id, given_up.index, str(given_up.status)) == ("t/0", 0, "error")
    assert "died 3 times" in given_up.detail and "ActorDiedError: killed" in given_up.detail
    assert given_up.seed == sample_seed(5, "t/0", 0)
    rest = book.next_chunk()
    assert rest is not None and [c.index for c, _ in rest.items] == [1]
    book.done(rest.number)
    assert book.next_chunk() is None and book.finished()


def test_a_chunk_returned_unjudged_goes_out_again_without_a_loss() -> None:
    book = ChunkBook(_cands(2), 2)
    first = book.next_chunk()
    assert first is not None
    book.returned(first.number)
    again = book.next_chunk()
    assert again is not None and [c.index for c, _ in again.items] == [0, 1]


def test_pair_texts_travel_once_by_key_and_come_off_the_candidates() -> None:
    book = ChunkBook(_cands(4, test="def check(f): pass"), 4)
    chunk = book.next_chunk()
    assert chunk is not None
    assert len(chunk.keys) == 1 and all(c.test is None for c, _ in chunk.items)
    (key,) = chunk.keys
    assert book.texts[key] == ("def check(f): pass", None)
