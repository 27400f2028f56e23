"""The agenda's tables in the state store (glossary 62-63), registered with the store's one
sequence of migrations; `tabletop.agenda.store` imports this, so whoever uses agendas has them."""

from __future__ import annotations

from tabletop.store.schema import register

# 2: agendas, ballots, predictions and their log
register(
    2,
    "agenda",
    """
    create table agendas (
        id {id},
        guild_id text not null,
        channel_id text not null,
        message_id text,
        name text not null,
        outcome_type text not null,
        card_kind text,
        outcomes text not null,          -- JSON list of outcome names
        speaker text,                    -- display name of the speaker
        speaker_id text,
        players text not null,           -- JSON list of {{id, name}} in voting order
        starter_id text not null,
        starter_name text not null,
        status text not null default 'open',   -- open | closed | cancelled
        result text,                     -- JSON of the resolution when closed
        created_at text not null default {now},
        closed_at text
    );
    create index agendas_open on agendas (status, guild_id, channel_id);
    create table ballots (
        agenda_id integer not null references agendas(id),
        voter_id text not null,
        voter_name text not null,
        outcome text,                    -- null: abstained
        votes integer not null,
        cast_at text not null default {now},
        primary key (agenda_id, voter_id)
    );
    create table predictions (
        agenda_id integer not null references agendas(id),
        player_id text not null,
        player_name text not null,
        outcome text not null,
        made_at text not null default {now},
        primary key (agenda_id, player_id)
    );
    create table agenda_log (
        id {id},
        agenda_id integer not null references agendas(id),
        actor_id text not null,
        actor_name text not null,
        action text not null,            -- start | vote | abstain | predict | close | cancel
        detail text not null default '',
        at text not null default {now}
    );
    create index agenda_log_agenda on agenda_log (agenda_id);
    """,
)
# 4: an agenda message keeps the language it was started in, whoever clicks later
register(
    4,
    "agenda",
    """
    alter table agendas add column locale text not null default 'ko';
    """,
)
# 5: secret ballots: each ballot shown only to its voter until the agenda closes
register(
    5,
    "agenda",
    """
    alter table agendas add column secret integer not null default 0;
    """,
)
# 6: the when and after windows (passes, cards played) and the agenda phase as a whole
register(
    6,
    "agenda",
    """
    alter table agendas add column windows integer not null default 0;
    alter table agendas add column phase_id integer;
    create table agenda_passes (
        agenda_id integer not null references agendas(id),
        stage text not null,             -- the window: when | after
        player_id text not null,
        player_name text not null,
        lasting integer not null default 0,
        primary key (agenda_id, stage, player_id)
    );
    create table agenda_plays (
        id {id},
        agenda_id integer not null references agendas(id),
        stage text not null,
        player_id text not null,
        player_name text not null,
        card text not null,
        at text not null default {now}
    );
    create table agenda_phases (
        id {id},
        guild_id text not null,
        channel_id text not null,
        players text not null,           -- JSON list of {{id, name}} as given
        speaker text,                    -- JSON {{id, name}}
        windows integer not null default 0,
        names text not null,             -- JSON [first agenda's name, second's]
        step integer not null default 1, -- the agenda now open (1, 2), or 3 once the phase is over
        created_at text not null default {now}
    );
    """,
)
# 8: integrity the database enforces for every process: one open agenda per channel; passes kept
# in the order they were made (SQLite's rowid has no PostgreSQL twin)
register(
    8,
    "agenda",
    """
    create unique index one_open_agenda_per_channel on agendas (guild_id, channel_id) where status = 'open';
    alter table agenda_passes add column at text not null default '';
    """,
)
# 9: outcomes as rows, one per agenda and name (the name unique within its agenda), instead of
# a JSON list in the agenda's row: a planet named by a ballot is an insert, never a rewrite.
# The agenda's `outcomes` column keeps the list it was started with.
_OUTCOME_ROWS = """
    create table agenda_outcomes (
        agenda_id integer not null references agendas(id),
        position integer not null,
        name text not null,
        primary key (agenda_id, name)
    );
    """
register(
    9,
    "agenda",
    {
        "sqlite": _OUTCOME_ROWS
        + "insert into agenda_outcomes (agenda_id, position, name) "
        + "select a.id, j.key, j.value from agendas a, json_each(a.outcomes) j;",
        "postgresql": _OUTCOME_ROWS
        + "insert into agenda_outcomes (agenda_id, position, name) "
        + "select a.id, j.n - 1, j.name from agendas a, json_array_elements_text(a.outcomes::json) with ordinality j(name, n);",
    },
)
# 10: the galactic event Stellar Atomics (Thunder's Edge): the players who no longer have their
# token on its card cannot vote or play action cards in the agenda phase
register(
    10,
    "agenda",
    """
    alter table agendas add column barred text not null default '[]';
    alter table agenda_phases add column barred text not null default '[]';
    """,
)
# 11: the galactic event Hidden Agenda (Thunder's Edge): secret ballots whose totals alone are
# revealed; who voted how only the speaker reads
register(
    11,
    "agenda",
    """
    alter table agendas add column totals_only integer not null default 0;
    alter table agenda_phases add column totals_only integer not null default 0;
    """,
)
