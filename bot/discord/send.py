"""The one place that sends to Discord: service replies become interaction responses, channel
messages and edits of earlier messages.

- A reply's ``private`` message answers the user who acted, ephemerally.
- ``public`` messages go to their channels as ordinary messages (text, one image, buttons), or,
  when the service says ``edit``, replace the words of the message it names (:class:`Outbox`:
  the lobby as players join, the phase message as players get ready, a live FUSE table round
  after round, its picture too), a few seconds late so that several changes make one edit.
- Only the users a message lists can be mentioned: never ``@everyone``, ``@here`` or roles, so
  user-written text (display names) cannot ping anyone.
- Nothing is cut. A message's head (who is awaited, the winner) is the content, first; its
  narration goes in embeds (4,096 characters each, 6,000 a message); what does not fit goes in
  a further message (:func:`layout`).
- A channel where the bot may not post gets no request at all while that lasts: its table is
  paused (``Service.pause``), the host is told once by direct message, and the table is posted
  again when the bot can post there (:class:`Outbox`, :mod:`bot.discord.perms`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

import aiohttp
import discord

from bot.discord.channels import (
    AGAIN,
    DONE,
    DROP,
    KNOWN_MAX,
    RETRY,
    PostReporter,
    backoff,
)
from bot.discord.edits import Edits, Job, drawn, keeping_picture, merged
from bot.discord.layout import attachment, layout, message_kwargs
from bot.service.replies import Outgoing, Posted, Slot
from bot.service.text import Text, lines

# What the user reads when something failed: before anything was saved ("try again"), and
# after their command was saved, when only its table post has not gone out yet.
INTERNAL = "discord.error.internal"
SAVED = "discord.saved.follows"

log = logging.getLogger(__name__)

# Readiness and lobby edits wait this long for more of their kind: five players who submit
# within two seconds make one edit, not five.
EDIT_DELAY = 2.0


# How long a closing bot waits for the channels' queues to empty (what is left stays owed in
# the database and goes out after the next start).
FLUSH_GRACE = 2.0
# Rows sent within this many seconds are deleted in one transaction.
SETTLE_BATCH = 0.05
# How often at most the database is asked for deliveries owed and not queued, and how long a
# delivery must have gone untried to be taken over from another process (more than the
# longest backoff: a process retrying its own deliveries keeps them).
PICK_UP_EVERY = 30.0
ABANDONED = 600.0
# Discord lets a channel take about 5 messages in 5 s: the sender posts no faster, so a quick
# table's next posts wait, and the newest of a game's replaces those still waiting
# (``_supersede``: the story stays) rather than meet a 429.
CHANNEL_POSTS = 5
CHANNEL_WINDOW = 5.0
# An edit of a message this process has not posted yet waits this long for its post before
# posting the table anew: a command's posts reach the sender only once its answer went out,
# so on a busy bot the next command's edit of the same message can come first (seen in bench
# memory under load: the start's table and the first roll's edit).
POST_GRACE = 5.0


@dataclass(frozen=True)
class SenderStats:
    """The sender's state for a health check: ``waiting`` posts, edits and notices not yet
    sent (in ``channels`` channels), the age in seconds of the oldest of them, the tries
    that failed and will be retried (``retries``), and the deliveries given up (``failed``:
    refused by Discord as invalid, since the start)."""

    waiting: int
    oldest_age: float
    channels: int
    retries: int
    failed: int


class Outbox(Edits):
    """The bot's posts and edits, delivered by a sender per channel (see ``docs/discord.md``).

    :meth:`enqueue` takes a message and returns at once: each channel (or thread) with work has
    its own task that sends its messages in order and retries each, with exponential backoff
    and jitter, until Discord takes it; a channel waiting out a rate limit or an outage delays
    only itself (discord.py sleeps out a 429 inside the request: in that channel's task). A
    message the service recorded as owed (``Outgoing.delivery``) is settled in the database
    once sent, and sent with its nonce, so a repeat after a crash returns the message already
    posted; what a stop cuts off is picked up at the next start (:meth:`pick_up`).

    The outbox remembers which message each slot (a game's lobby, its phase message) became,
    tells the service (so an edit finds it after a restart), and gathers edits: an edit waits
    ``delay`` seconds, and a later edit of the same slot within that time replaces it, so
    several submissions make one edit. A new phase post of a game drops its earlier phase's
    waiting edits, and replaces its earlier phase posts not sent yet, keeping their narration
    first in its own: the channel gets the table as it stands and the story of how it got
    there."""

    def __init__(
        self, client: discord.Client, service: PostReporter | None, delay: float = EDIT_DELAY
    ) -> None:
        super().__init__(client, service)
        self.delay = delay
        self.queues: dict[int, deque[Job]] = {}
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.failed = 0
        # When the channels that posted in the last window got their posts (the last
        # ``CHANNEL_POSTS`` each, never none; in the order they last posted).
        self._posts: dict[int, deque[float]] = {}
        self._picked = -PICK_UP_EVERY  # when the database was last looked at (pick_up)
        self._settled: OrderedDict[int, None] = OrderedDict()  # rows settled lately
        self._unsettled: list[int] = []  # rows to delete in the next batch
        self._noted: list[Posted] = []  # slots' messages posted, for the next batch
        self._settling = False

    @property
    def busy(self) -> bool:
        return any(self.queues.values()) or bool(self.chores)

    def stats(self) -> SenderStats:
        """What the sender has not delivered yet (a health endpoint reads this)."""
        jobs = [job for queue in self.queues.values() for job in queue]
        now = time.monotonic()
        return SenderStats(
            waiting=len(jobs),
            oldest_age=max((now - job.queued for job in jobs), default=0.0),
            channels=sum(1 for queue in self.queues.values() if queue),
            retries=self.retries,
            failed=self.failed,
        )

    # ------------------------------------------------------------------ the entry point

    def enqueue(self, outgoing: Outgoing, since: float | None = None) -> None:
        """Hand ``outgoing`` to its channel's sender and return at once (no request here).
        ``since``: when the service planned this post (a deadline's; ``time.monotonic``). The
        service plans none for a paused table, so a block older than that is out of date:
        another process resumed the table."""
        outgoing = drawn(outgoing)
        channel = outgoing.channel_id
        blocked = self.blocked.get(channel)
        if blocked is not None and since is not None and blocked.at < since and not blocked.gone:
            log.info("channel %s: its table went on elsewhere; posting again", channel)
            del self.blocked[channel]
        queue = self.queues.setdefault(channel, deque())
        slot = outgoing.slot
        if outgoing.edit and slot is not None:
            if self._outdated(outgoing, slot):
                self.done(outgoing)  # a newer edit of that message came first: it shows more
                return
            waiting = self._waiting_edit(slot)
            if waiting is not None and waiting.outgoing is not None:
                waiting.outgoing = merged(keeping_picture(waiting.outgoing, outgoing), waiting)
                waiting.words = True
                return
            queue.append(Job(outgoing, since, not_before=time.monotonic() + self.delay))
        else:
            if slot is not None and slot.role == "phase":
                outgoing = self._supersede(queue, outgoing, slot)
            # Ahead of an edit of its own message that came first (``POST_GRACE``): posted,
            # with its pings, then edited to the newer table.
            waiting = self._waiting_edit(slot) if slot is not None else None
            at = next((i for i, job in enumerate(queue) if job is waiting), len(queue))
            queue.insert(at, Job(outgoing, since))
        self._run(channel)

    def after(self, channel_id: int, action: Callable[[], Awaitable[None]]) -> None:
        """Run ``action`` once what is queued for the channel now has gone out (or not)."""
        self.queues.setdefault(channel_id, deque()).append(Job(None, action=action))
        self._run(channel_id)

    def done(self, outgoing: Outgoing) -> None:
        """``outgoing`` went out another way (as an interaction's response), or is moot (its
        channel refuses the bot; the table comes back whole): settle its delivery rows."""
        if outgoing.delivery:
            self._chore(self._settle(outgoing.delivery))

    def finish(self, outgoing: list[Outgoing]) -> None:
        """An answer is over: of its public messages, those never handed to a sender went out
        another way (one was the interaction's response) or are moot (their channel refuses
        the bot): their rows are settled, so no later pick-up posts them."""
        queued = self._queued_rows()
        rows = tuple(
            row
            for o in outgoing
            for row in o.delivery
            if row not in queued and row not in self._settled
        )
        if rows:
            self._chore(self._settle(rows))

    def _queued_rows(self) -> set[int]:
        return self._drawing | {
            row
            for queue in self.queues.values()
            for job in queue
            if job.outgoing is not None
            for row in job.outgoing.delivery
        }

    async def pick_up(self) -> None:
        """Queue what is owed in the database and not here: what earlier runs left (the bot
        stopped, or Discord kept refusing), and what a failed answer never queued. The bot
        calls it once ready, then at each round of its deadline loop (a cheap look at ids)."""
        if self.service is None or time.monotonic() < self._picked + PICK_UP_EVERY:
            return
        # The first look (at start-up) takes everything owed: what earlier runs left. Later
        # looks take only what no process has tried for a while: another process (a shard)
        # retries its own, and this one's lost answers come back after HANDED_FRESH.
        stale = None if self._picked < 0 else ABANDONED
        self._picked = time.monotonic()
        owed = await self.service.owed(self._queued_rows(), stale)
        if owed:
            log.info("%d posts owed and not queued: sending them", len(owed))
        for outgoing in owed:
            self.enqueue(outgoing)

    def _supersede(self, queue: deque[Job], outgoing: Outgoing, slot: Slot) -> Outgoing:
        """A new phase post of a game: its earlier phase's edits not sent yet are moot (the new
        message shows the table), and its earlier phase posts not sent yet are replaced by this
        one, which tells their narration first (nothing that happened goes untold). An edit
        that brings a table message's narration (a turn's message, a live table) is the only
        place its story is told: it goes out now, ahead of the post, rather than wait."""
        mine = [
            job
            for job in queue
            if job.outgoing is not None
            and not job.sending
            and job.outgoing.slot is not None
            and job.outgoing.slot.game_id == slot.game_id
            and job.outgoing.slot.role == "phase"
            and job.outgoing.slot != slot  # an edit of this very message is newer, not moot
        ]
        unsent = {job.outgoing.slot for job in mine if job.outgoing and not job.outgoing.edit}
        moot: list[Job] = []
        stories: dict[Slot | None, Text] = {}  # each unsent message's story, as last told
        for job in mine:
            o = job.outgoing
            assert o is not None
            if o.edit and o.message.narration and o.slot not in unsent:
                job.not_before = 0.0  # its message is out: the story goes to it now
                continue
            moot.append(job)
            if o.message.narration and (not o.edit or o.slot in stories):
                stories[o.slot] = o.message.narration  # a whole-message edit tells it all
        if not moot:
            return outgoing
        told = list(stories.values())
        rows: list[int] = []
        for job in moot:
            queue.remove(job)
            assert job.outgoing is not None
            rows.extend(job.outgoing.delivery)
        message = outgoing.message
        if told:
            message = replace(message, narration=lines([*told, message.narration]))
        return replace(outgoing, message=message, delivery=(*rows, *outgoing.delivery))

    # ------------------------------------------------------------------ the channels' senders

    def _run(self, channel_id: int) -> None:
        if channel_id not in self.tasks:
            task = asyncio.create_task(
                self._send_all(channel_id), name=f"partida-send-{channel_id}"
            )
            task.add_done_callback(_said_if_failed)
            self.tasks[channel_id] = task

    async def _send_all(self, channel_id: int) -> None:
        """The channel's sender: its jobs in order, each until it is done."""
        me = asyncio.current_task()
        queue = self.queues[channel_id]
        try:
            while queue:
                job = queue[0]
                wait = job.not_before - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue  # the head may have been replaced meanwhile
                paced = self._paced(channel_id, job)
                if paced > 0:
                    job.not_before = time.monotonic() + paced
                    continue
                outcome, retry_after = await self._try(job)
                if outcome == AGAIN:
                    continue
                if outcome == RETRY:
                    job.attempts += 1
                    self.retries += 1
                    delay = backoff(job.attempts, retry_after)
                    job.not_before = time.monotonic() + delay
                    if job.outgoing is not None and job.outgoing.delivery and self.service:
                        self._chore(self._attempted(job.outgoing.delivery, delay))
                    continue
                if job.outgoing is not None and _is_post(job.outgoing) and outcome == DONE:
                    self._posted(channel_id)
                if queue and queue[0] is job:
                    queue.popleft()
                if outcome == DONE and self._picture_follows(job.outgoing, self._sent_as(job)):
                    continue  # owed until the picture's edit: it settles the rows
                if job.outgoing is not None and job.outgoing.delivery:
                    self._chore(self._settle(job.outgoing.delivery))
        finally:
            if self.tasks.get(channel_id) is me:
                del self.tasks[channel_id]
                if not queue:
                    self.queues.pop(channel_id, None)

    def _posted(self, channel_id: int) -> None:
        """A post went out in ``channel_id`` now; channels quiet for a whole window are
        forgotten (the table stays as small as the channels posting lately)."""
        now = time.monotonic()
        recent = self._posts.pop(channel_id, None) or deque()
        recent.append(now)
        while len(recent) > CHANNEL_POSTS:
            recent.popleft()
        self._posts[channel_id] = recent  # (the most recently posting last)
        while self._posts:
            oldest = next(iter(self._posts))
            if now - self._posts[oldest][-1] < CHANNEL_WINDOW:
                break
            del self._posts[oldest]

    def _paced(self, channel_id: int, job: Job) -> float:
        """Seconds ``job`` (a post) must wait so the channel gets at most ``CHANNEL_POSTS`` in
        ``CHANNEL_WINDOW`` seconds; 0: it may go now (edits and notices are not paced)."""
        if job.outgoing is None or not _is_post(job.outgoing):
            return 0.0
        recent = self._posts.get(channel_id)
        if not recent:
            return 0.0
        now = time.monotonic()
        while recent and now - recent[0] >= CHANNEL_WINDOW:
            recent.popleft()
        if not recent:
            # Quiet for a whole window: forgotten, as ``_posted`` forgets, never kept empty
            # (an empty entry first in line stopped the next channel's ``_posted``).
            del self._posts[channel_id]
            return 0.0
        if len(recent) < CHANNEL_POSTS:
            return 0.0
        return CHANNEL_WINDOW - (now - recent[0])

    async def _try(self, job: Job) -> tuple[str, float]:
        """One try at ``job``: what it came to, and how long Discord asked to wait."""
        job.sending = True
        try:
            if job.outgoing is None:
                assert job.action is not None
                await job.action()
                return DONE, 0.0
            outgoing = job.outgoing
            if outgoing.dm is not None:
                return await self._dm_job(job), 0.0
            if outgoing.archive:
                return await self._archive(outgoing.channel_id), 0.0
            if outgoing.edit:
                if self._where(outgoing) is None and time.monotonic() - job.queued < POST_GRACE:
                    job.not_before = time.monotonic() + 0.1  # its post may be on its way
                    return AGAIN, 0.0
                return await self._edit_later(outgoing, words=job.words), 0.0
            return await self._post_job(job), 0.0
        except discord.RateLimited as exc:
            return RETRY, exc.retry_after
        except discord.HTTPException as exc:
            if exc.status == 429 or exc.status >= 500:
                log.warning("channel %s: Discord failed (%s); retrying", _channel_of(job), exc)
                return RETRY, 0.0
            log.error("channel %s: Discord refused a message for good: %s", _channel_of(job), exc)
            self.failed += 1
            return DROP, 0.0
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            log.warning("channel %s: could not reach Discord (%r); retrying", _channel_of(job), exc)
            return RETRY, 0.0
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("channel %s: sending failed; retrying", _channel_of(job))
            return RETRY, 0.0
        finally:
            job.sending = False

    async def _settle(self, rows: tuple[int, ...]) -> None:
        """Delete these rows, together with those other channels settle meanwhile, and record
        the ids of the slots' messages posted meanwhile (:meth:`_note`): one write transaction
        per ``SETTLE_BATCH`` seconds, not one per post, nor one more per message id."""
        for row in rows:
            self._settled[row] = None
        while len(self._settled) > KNOWN_MAX:
            self._settled.popitem(last=False)
        if self.service is None:
            self._noted.clear()
            return
        self._unsettled.extend(rows)
        if self._settling:
            return  # the batch under way takes them
        self._settling = True
        try:
            await asyncio.sleep(SETTLE_BATCH)
            while self._unsettled or self._noted:
                batch, self._unsettled = tuple(self._unsettled), []
                noted, self._noted = tuple(self._noted), []
                try:
                    await self.service.delivered(batch, noted)
                except Exception:  # still owed: sent again after a restart, nonce and all
                    log.exception("could not record deliveries %s as sent", batch)
        finally:
            self._settling = False

    def _note(self, posted: Posted) -> None:
        """A slot's message is posted: the sender knows its id at once (``known``), and the
        service records it with the next batch of deliveries settled (the post's own rows are
        settled in it too, unless a picture follows: then the batch carries the id alone)."""
        self._noted.append(posted)
        self._chore(self._settle(()))

    async def _attempted(self, rows: tuple[int, ...], delay: float) -> None:
        assert self.service is not None
        try:
            await self.service.attempted(rows, delay)
        except Exception:
            log.exception("could not record a failed try of deliveries %s", rows)

    # ------------------------------------------------------------------ posts

    async def _post_job(self, job: Job) -> str:
        outgoing = job.outgoing
        assert outgoing is not None
        if not await self._may_post(outgoing.channel_id):
            return DROP  # the table waits; it is posted whole when it comes back
        try:
            await _send(self.client, outgoing, job.pieces, outgoing.nonce or job.nonce)
        except discord.HTTPException as exc:
            refused = await self._refused(outgoing.channel_id, exc)
            if refused is not None:
                return refused
            raise
        slot = outgoing.slot
        message_id = job.pieces[0]
        if slot is not None:
            self._know(slot, outgoing.channel_id, message_id)
            self._note(Posted(slot, outgoing.channel_id, message_id))
            if outgoing.thread is not None:
                await self._open_thread(outgoing, slot, message_id)
        return DONE

    async def _dm_job(self, job: Job) -> str:
        """A player's direct message about their game (bot/service/reach.py). If they take
        none, Discord says so (403, 50007): the game's channel mentions them instead, with a
        note, and the service mentions them from then on. 429s and 5xx are retried as posts."""
        outgoing = job.outgoing
        assert outgoing is not None and outgoing.dm is not None
        nonce = outgoing.nonce or job.nonce
        try:
            direct = await self.client.create_dm(discord.Object(outgoing.dm))
            await _send(self.client, replace(outgoing, channel_id=direct.id), job.pieces, nonce)
            return DONE
        except discord.Forbidden as exc:
            log.info("user %s takes no direct messages (%s): mentioned instead", outgoing.dm, exc)
        if self.service is not None:
            await self.service.dm_closed(outgoing.dm)
        if outgoing.fallback is not None and await self._may_post(outgoing.channel_id):
            instead = replace(outgoing, message=outgoing.fallback, dm=None)
            await _send(self.client, instead, [], f"{nonce}f")
        return DONE

    async def flush(self) -> None:
        """The bot is closing: send waiting edits now, give the channels' senders a moment,
        then stop them (what is left stays owed and goes out after the next start)."""
        for queue in self.queues.values():
            for job in queue:
                job.not_before = 0.0
        end = time.monotonic() + FLUSH_GRACE
        while self.busy and time.monotonic() < end:
            await asyncio.sleep(0.02)
        tasks = [*self.tasks.values(), *self.chores]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.tasks.clear()
        self.queues.clear()


def _said_if_failed(task: asyncio.Task[None]) -> None:
    """A sender that stopped on a bug says so in the log, with its channel (the channel's queue
    waits for its next job, which starts a sender again): never a silent "Task exception was
    never retrieved" at exit."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("the sender %s stopped", task.get_name(), exc_info=error)


def _is_post(outgoing: Outgoing) -> bool:
    """A new message in a channel (not an edit, not an archive)."""
    return not outgoing.edit and not outgoing.archive


def _channel_of(job: Job) -> str:
    return str(job.outgoing.channel_id) if job.outgoing is not None else "?"


async def post(client: discord.Client, outgoing: Outgoing) -> tuple[str | None, int | None]:
    """Send a public message to its channel (two or more when its narration is long). Returns
    the catalogue key of what to tell the user when Discord refused (``None``: posted; the game
    itself is already saved) and the id of the (first) message, in one try. For a game's
    messages use :meth:`Outbox.enqueue`, which retries until Discord takes them and stops
    posting where the bot may not."""
    ids: list[int] = []
    try:
        await _send(client, outgoing, ids, secrets.token_hex(8))
    except discord.HTTPException as exc:
        return _problem(outgoing, exc), ids[0] if ids else None
    return None, ids[0]


async def _send(client: discord.Client, outgoing: Outgoing, ids: list[int], nonce: str) -> None:
    """Post each piece of ``outgoing`` not in ``ids`` yet (a retry sends the rest); ``ids``
    receives the ids of those that went out. Each piece carries ``nonce`` (and its number):
    discord.py sends it with ``enforce_nonce``, so Discord answers a repeat within a few
    minutes (a crash between its answer and our record) with the message already posted."""
    channel = client.get_partial_messageable(outgoing.channel_id)
    for index, piece in enumerate(layout(outgoing.message)):
        if index < len(ids):
            continue
        kwargs = message_kwargs(outgoing.message, piece, first=index == 0)
        file = attachment(outgoing.message) if index == 0 else None
        if file is not None:
            kwargs["file"] = file
        sent = await channel.send(nonce=f"{nonce}.{index}", **kwargs)
        ids.append(sent.id)


def _problem(outgoing: Outgoing, exc: discord.HTTPException) -> str:
    """The catalogue key of what to tell the user about a refused post."""
    if isinstance(exc, discord.Forbidden | discord.NotFound):
        log.warning("cannot post in channel %s: %s", outgoing.channel_id, exc)
        return "discord.error.cannot_post"
    log.exception("Discord refused a message for channel %s", outgoing.channel_id)
    return INTERNAL
