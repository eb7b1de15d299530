-- kb/schema.sql — the knowledge base schema, as forward migration steps.
-- Each "-- version N" section upgrades a KB at version N-1 to version N; a new KB runs them all.
-- gpuwise embeds this file (see the Makefile) and records the version in PRAGMA user_version.
-- The "-- connection (NAME)" sections at the end are no version: TEMP views and triggers that
-- each connection needing them makes for itself (kb_file.c; version 18 says why).
-- Numbers that are unknown are NULL; every fact row names the source it comes from.

-- version 1
CREATE TABLE source (
    id        TEXT PRIMARY KEY NOT NULL,
    title     TEXT NOT NULL,
    publisher TEXT,
    url       TEXT,
    retrieved TEXT,
    kind      TEXT,
    note      TEXT
);

CREATE TABLE gpu (
    id                   TEXT PRIMARY KEY NOT NULL,
    name                 TEXT NOT NULL,
    vendor               TEXT NOT NULL,
    architecture         TEXT,
    form_factor          TEXT,
    memory_gb            REAL,
    memory_type          TEXT,
    memory_bandwidth_gbs REAL,
    tdp_w                REAL,
    fp32_tflops          REAL,
    tf32_tflops          REAL,   -- tensor figures are dense; sparsity says whether 2:4 doubles them
    fp16_tflops          REAL,
    bf16_tflops          REAL,
    fp8_tflops           REAL,
    int8_tops            REAL,
    sparsity             TEXT,
    pcie_gen             REAL,
    pcie_lanes           REAL,
    nvlink_gbs           REAL,   -- 0 = no NVLink
    mig_instances        REAL,
    ecc                  INTEGER,
    release_date         TEXT,
    launch_price_usd     REAL,
    source               TEXT NOT NULL REFERENCES source(id),
    note                 TEXT
);

CREATE TABLE gpu_alias (
    gpu   TEXT NOT NULL REFERENCES gpu(id) ON DELETE CASCADE,
    alias TEXT NOT NULL,
    PRIMARY KEY (gpu, alias)
);

CREATE TABLE benchmark (
    id           INTEGER PRIMARY KEY,
    gpu          TEXT NOT NULL REFERENCES gpu(id),
    gpu_count    REAL NOT NULL DEFAULT 1,
    workload     TEXT NOT NULL,
    metric       TEXT NOT NULL,
    value        REAL NOT NULL,
    unit         TEXT NOT NULL,
    precision    TEXT,
    batch        REAL,
    framework    TEXT,
    interconnect TEXT,
    power_w      REAL,
    source       TEXT NOT NULL REFERENCES source(id),
    note         TEXT
);
CREATE INDEX benchmark_gpu ON benchmark(gpu);

CREATE TABLE price (
    id        INTEGER PRIMARY KEY,
    gpu       TEXT NOT NULL REFERENCES gpu(id),
    kind      TEXT NOT NULL CHECK (kind IN ('new', 'used', 'cloud')),
    amount    REAL NOT NULL,
    currency  TEXT NOT NULL,
    unit      TEXT NOT NULL CHECK (unit IN ('card', 'hour')),
    gpu_count REAL NOT NULL DEFAULT 1,
    region    TEXT,
    provider  TEXT,
    instance  TEXT,
    spot      INTEGER NOT NULL DEFAULT 0,
    as_of     TEXT NOT NULL,
    source    TEXT NOT NULL REFERENCES source(id),
    note      TEXT
);
CREATE INDEX price_gpu ON price(gpu);
CREATE INDEX price_provider ON price(provider);

CREATE TABLE rate (
    currency TEXT NOT NULL,
    per_usd  REAL NOT NULL,
    as_of    TEXT NOT NULL,
    source   TEXT NOT NULL REFERENCES source(id),
    PRIMARY KEY (currency, as_of)
);

-- version 2
-- Claims found in sources that are wrong or disputed, and one full-text index over everything.
CREATE TABLE claim (
    id                INTEGER PRIMARY KEY,
    subject           TEXT NOT NULL,
    claim             TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('wrong', 'disputed')),
    correction        TEXT,
    source            TEXT NOT NULL REFERENCES source(id),
    correction_source TEXT REFERENCES source(id)
);
CREATE INDEX claim_subject ON claim(subject);

-- The text each row contributes to the index.  An index row's rowid is the table row's rowid
-- times 8 plus a table number, so a trigger finds its entry without scanning; `row` is the
-- table's rowid, so a trigger's lookup through a view stays an index lookup.
CREATE VIEW kb_text_gpu AS
SELECT g.rowid AS row, g.rowid * 8 + 1 AS fid, 'gpu' AS kind, g.id AS ref, g.name AS title,
       g.id || ' ' || g.vendor || ' ' || ifnull(g.architecture, '') || ' ' ||
       ifnull(g.form_factor, '') || ' ' ||
       CASE WHEN g.memory_gb IS NOT NULL THEN printf('%gGB %g GB', g.memory_gb, g.memory_gb) ELSE '' END || ' ' ||
       ifnull(g.memory_type, '') || ' ' ||
       CASE WHEN g.nvlink_gbs > 0 THEN printf('NVLink %g GB/s', g.nvlink_gbs) ELSE '' END ||
       ' ' || ifnull(g.sparsity, '') || ' ' ||
       ifnull((SELECT group_concat(a.alias, ' ') FROM gpu_alias a WHERE a.gpu = g.id), '') ||
       ' ' || ifnull(g.note, '') AS body
FROM gpu g;

CREATE VIEW kb_text_benchmark AS
SELECT b.rowid AS row, b.rowid * 8 + 2 AS fid, 'benchmark' AS kind, CAST(b.id AS TEXT) AS ref,
       (SELECT name FROM gpu WHERE id = b.gpu) || ' ' || b.workload AS title,
       b.gpu || ' ' || printf('%gx', b.gpu_count) || ' ' || b.workload || ' ' || b.metric || ' ' ||
       printf('%g', b.value) || ' ' || b.unit || ' ' || ifnull(b.precision, '') || ' ' ||
       ifnull(b.framework, '') || ' ' || ifnull(b.interconnect, '') || ' ' ||
       ifnull(b.note, '') AS body
FROM benchmark b;

CREATE VIEW kb_text_price AS
SELECT p.rowid AS row, p.rowid * 8 + 3 AS fid, 'price' AS kind, CAST(p.id AS TEXT) AS ref,
       (SELECT name FROM gpu WHERE id = p.gpu) || ' ' || p.kind ||
       ifnull(' ' || p.provider, '') AS title,
       p.gpu || ' ' || p.kind || ' ' || printf('%g', p.amount) || ' ' || p.currency || ' per ' ||
       p.unit || ' ' || ifnull(p.region, '') || ' ' || ifnull(p.provider, '') || ' ' ||
       ifnull(p.instance, '') || ' ' || CASE WHEN p.spot THEN 'spot' ELSE '' END || ' ' ||
       p.as_of || ' ' || ifnull(p.note, '') AS body
FROM price p;

CREATE VIEW kb_text_source AS
SELECT s.rowid AS row, s.rowid * 8 + 4 AS fid, 'source' AS kind, s.id AS ref, s.title AS title,
       s.id || ' ' || ifnull(s.publisher, '') || ' ' || ifnull(s.url, '') || ' ' ||
       ifnull(s.kind, '') || ' ' || ifnull(s.note, '') AS body
FROM source s;

CREATE VIEW kb_text_claim AS
SELECT c.rowid AS row, c.rowid * 8 + 5 AS fid, 'claim' AS kind, CAST(c.id AS TEXT) AS ref,
       c.subject || ' (' || c.status || ')' AS title,
       c.claim || ' ' || ifnull(c.correction, '') AS body
FROM claim c;

CREATE VIEW kb_text_rate AS
SELECT r.rowid AS row, r.rowid * 8 + 6 AS fid, 'rate' AS kind, r.currency || '@' || r.as_of AS ref,
       r.currency || ' per USD' AS title,
       printf('%g', r.per_usd) || ' ' || r.currency || ' per USD ' || r.as_of AS body
FROM rate r;

CREATE VIEW kb_text AS
SELECT * FROM kb_text_gpu UNION ALL SELECT * FROM kb_text_benchmark
UNION ALL SELECT * FROM kb_text_price UNION ALL SELECT * FROM kb_text_source
UNION ALL SELECT * FROM kb_text_claim UNION ALL SELECT * FROM kb_text_rate;

CREATE VIRTUAL TABLE kb_fts USING fts5(kind UNINDEXED, ref UNINDEXED, title, body,
                                       tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO kb_fts(rowid, kind, ref, title, body) SELECT fid, kind, ref, title, body FROM kb_text;

CREATE TRIGGER gpu_fts_ins AFTER INSERT ON gpu BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_gpu WHERE ref = new.id;
END;
CREATE TRIGGER gpu_fts_upd AFTER UPDATE ON gpu BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 1;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_gpu WHERE ref = new.id;
END;
CREATE TRIGGER gpu_fts_del AFTER DELETE ON gpu BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 1;
END;
-- An alias is indexed as part of its GPU's entry.
CREATE TRIGGER alias_fts_ins AFTER INSERT ON gpu_alias BEGIN
    DELETE FROM kb_fts WHERE rowid = (SELECT rowid * 8 + 1 FROM gpu WHERE id = new.gpu);
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_gpu WHERE ref = new.gpu;
END;
CREATE TRIGGER alias_fts_del AFTER DELETE ON gpu_alias BEGIN
    DELETE FROM kb_fts WHERE rowid = (SELECT rowid * 8 + 1 FROM gpu WHERE id = old.gpu);
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_gpu WHERE ref = old.gpu;
END;
CREATE TRIGGER benchmark_fts_ins AFTER INSERT ON benchmark BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_benchmark WHERE row = new.rowid;
END;
CREATE TRIGGER benchmark_fts_del AFTER DELETE ON benchmark BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 2;
END;
CREATE TRIGGER price_fts_ins AFTER INSERT ON price BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_price WHERE row = new.rowid;
END;
CREATE TRIGGER price_fts_del AFTER DELETE ON price BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 3;
END;
CREATE TRIGGER source_fts_ins AFTER INSERT ON source BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_source WHERE ref = new.id;
END;
CREATE TRIGGER source_fts_upd AFTER UPDATE ON source BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 4;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_source WHERE ref = new.id;
END;
CREATE TRIGGER claim_fts_ins AFTER INSERT ON claim BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_claim WHERE row = new.rowid;
END;
CREATE TRIGGER rate_fts_ins AFTER INSERT ON rate BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_rate WHERE row = new.rowid;
END;
CREATE TRIGGER rate_fts_upd AFTER UPDATE ON rate BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 6;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_rate WHERE row = new.rowid;
END;

-- An import adds a row only when no identical one is there (kb.c store_row); these indexes make
-- that a look-up instead of a scan of every row of the GPU, which made large imports quadratic.
CREATE INDEX benchmark_identity ON benchmark(gpu, workload, metric, value);
CREATE INDEX price_identity ON price(gpu, provider, amount, as_of);

-- version 3
-- The figures the decision engine falls back on where a workload leaves them out (a host
-- machine's cost and power, the resale value) or no measurement gives them (the PCIe all-reduce
-- rate, heat throttling), each citing its source like any fact.  kb_table.c describes the ids
-- there may be, and each one's unit (a currency code for money) and range.
CREATE TABLE assumption (
    id     TEXT PRIMARY KEY NOT NULL,
    value  REAL NOT NULL,
    unit   TEXT NOT NULL,
    source TEXT NOT NULL REFERENCES source(id),
    note   TEXT
);

CREATE VIEW kb_text_assumption AS
SELECT a.rowid AS row, a.rowid * 8 + 7 AS fid, 'assumption' AS kind, a.id AS ref,
       'assumed ' || printf('%g', a.value) || ' ' || a.unit AS title,
       a.id || ' assumed ' || printf('%g', a.value) || ' ' || a.unit || ' ' ||
       ifnull(a.note, '') AS body
FROM assumption a;

DROP VIEW kb_text;
CREATE VIEW kb_text AS
SELECT * FROM kb_text_gpu UNION ALL SELECT * FROM kb_text_benchmark
UNION ALL SELECT * FROM kb_text_price UNION ALL SELECT * FROM kb_text_source
UNION ALL SELECT * FROM kb_text_claim UNION ALL SELECT * FROM kb_text_rate
UNION ALL SELECT * FROM kb_text_assumption;

CREATE TRIGGER assumption_fts_ins AFTER INSERT ON assumption BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_assumption WHERE ref = new.id;
END;
CREATE TRIGGER assumption_fts_upd AFTER UPDATE ON assumption BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 7;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_assumption WHERE ref = new.id;
END;
CREATE TRIGGER assumption_fts_del AFTER DELETE ON assumption BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 7;
END;

-- Before version 3 these figures were written into gpuwise itself, so every older KB decided
-- with them: an upgraded KB keeps them, as rows citing the sources they came from where it holds
-- those sources.  Frozen history, like the sections above: a new KB (whose source table is empty
-- here) gets its rows from kb/data/assumptions.csv, which may since have changed.
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'host_cost', 8000, 'CNY', id,
       '"配套主机：8000元" (a matching host machine: CNY 8,000) in the article''s own-vs-cloud model for one RTX 4090: card 16k + host 8k + 3 years of electricity 5k - residual 5k.'
FROM source WHERE id = 'article-4090-a100-h100';
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'host_power_w', 200, 'W', id,
       'A host''s draw besides its cards: the article''s electricity section puts the whole A100 machine at about 600 W, of which its card draws 400 W.'
FROM source WHERE id = 'article-a100-vs-4x3090';
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'resale_fraction', 0.3, 'fraction', id,
       'Share of a card''s price recovered at the horizon: in the article''s own-vs-cloud model a CNY 16,000 card is worth CNY 5,000 after 3 years (0.31, taken as 0.30).'
FROM source WHERE id = 'article-4090-a100-h100';
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'pcie4_allreduce_gbs', 16, 'GB/s', id,
       'The effective rate at which cards in one PCIe machine all-reduce gradients, not the link''s bandwidth: the article gives about 16 GB/s as PCIe 4.0 x16''s figure, which claims.csv marks wrong for the link (32 GB/s each way); 16 is kept only as the effective all-reduce rate between its four RTX 3090.'
FROM source WHERE id = 'article-a100-vs-4x3090';
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'poor_cooling_factor', 0.8, 'fraction', id,
       'Throughput a multi-card consumer build keeps in a poorly cooled room: the author reports about 20% loss when the four RTX 3090 throttle from heat.'
FROM source WHERE id = 'article-a100-vs-4x3090';

-- version 4
-- What decides an offer's worth besides its price: how far the price can be trusted (quality:
-- list, a provider's own price list or API; quote, a reseller's; anecdote, an article or a
-- blog), the share of one card the instance's GPU is (a MIG slice: 1/7 of an A100 for 1g), and
-- the fewest hours a rental is billed for.  kb_table.c describes them and their rules.
ALTER TABLE price ADD COLUMN quality TEXT CHECK (quality IN ('list', 'quote', 'anecdote'));
ALTER TABLE price ADD COLUMN gpu_fraction REAL NOT NULL DEFAULT 1;
ALTER TABLE price ADD COLUMN min_billing_hours REAL;

-- Rows of an older KB take their quality from their source's kind, as kb/data/prices.csv does:
-- a price list is the provider's own list, an article an anecdote; any other source (a plugin,
-- a user's file) says nothing about it.  Every older row was a whole card with no minimum.
UPDATE price SET quality = CASE (SELECT kind FROM source WHERE id = price.source)
                               WHEN 'price-list' THEN 'list'
                               WHEN 'article' THEN 'anecdote'
                           END;

-- version 5
-- Hardware sold only as whole machines (issue 13): an SXM or OAM module comes on a 4- or 8-GPU
-- baseboard inside a server, so it is bought as that server, whose price includes the host and
-- whose power is the server's.  A system row describes one such machine; a purchase price names
-- it (price.system), its gpu and gpu_count those of the system.  network_gbps is the bandwidth
-- between machines, all of a machine's ports together: a system's scale-out ports, or for a cloud
-- instance (on its price row) the network between instances the provider states.
CREATE TABLE system (
    id           TEXT PRIMARY KEY NOT NULL,
    name         TEXT NOT NULL,
    gpu          TEXT NOT NULL REFERENCES gpu(id),
    gpu_count    REAL NOT NULL,
    power_w      REAL,
    network_gbps REAL,
    source       TEXT NOT NULL REFERENCES source(id),
    note         TEXT
);
CREATE INDEX system_gpu ON system(gpu);
ALTER TABLE price ADD COLUMN system TEXT REFERENCES system(id);
ALTER TABLE price ADD COLUMN network_gbps REAL;

-- A system's price is for the whole system: the row's GPU and count are the system's.
CREATE TRIGGER price_system_match BEFORE INSERT ON price
WHEN new.system IS NOT NULL AND NOT EXISTS
    (SELECT 1 FROM system s WHERE s.id = new.system AND s.gpu = new.gpu
                              AND s.gpu_count = new.gpu_count)
BEGIN
    SELECT RAISE(ABORT, 'a price naming a system must have the system''s gpu and gpu_count');
END;

CREATE VIEW kb_text_system AS
SELECT s.rowid AS row, s.rowid * 8 AS fid, 'system' AS kind, s.id AS ref, s.name AS title,
       s.id || ' ' || s.gpu || ' ' || printf('%gx', s.gpu_count) || ' ' ||
       (SELECT name FROM gpu WHERE id = s.gpu) || ' ' ||
       CASE WHEN s.power_w IS NOT NULL THEN printf('%g W', s.power_w) ELSE '' END || ' ' ||
       ifnull(s.note, '') AS body
FROM system s;

DROP VIEW kb_text;
CREATE VIEW kb_text AS
SELECT * FROM kb_text_gpu UNION ALL SELECT * FROM kb_text_benchmark
UNION ALL SELECT * FROM kb_text_price UNION ALL SELECT * FROM kb_text_source
UNION ALL SELECT * FROM kb_text_claim UNION ALL SELECT * FROM kb_text_rate
UNION ALL SELECT * FROM kb_text_assumption UNION ALL SELECT * FROM kb_text_system;

CREATE TRIGGER system_fts_ins AFTER INSERT ON system BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_system WHERE ref = new.id;
END;
CREATE TRIGGER system_fts_upd AFTER UPDATE ON system BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_system WHERE ref = new.id;
END;
CREATE TRIGGER system_fts_del AFTER DELETE ON system BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8;
END;

-- The PCIe all-reduce figure is no longer read (the model uses each generation's rate); its slot
-- becomes the network between the hosts of a multi-host purchase.  An upgraded KB gets the row
-- with its source, as kb/data has them; a new KB (no assumption rows here yet) from kb/data.
INSERT INTO source (id, title, publisher, url, retrieved, kind, note)
SELECT 'ieee-802-3an', 'IEEE 802.3an-2006: Physical Layer and Management Parameters for 10 Gb/s Operation, Type 10GBASE-T',
       'IEEE', 'https://standards.ieee.org/ieee/802.3an/3377/', '2026-12-01', 'datasheet',
       '10GBASE-T: 10 Gb/s Ethernet over twisted-pair copper.'
WHERE EXISTS (SELECT 1 FROM assumption WHERE id = 'pcie4_allreduce_gbs')
  AND NOT EXISTS (SELECT 1 FROM source WHERE id = 'ieee-802-3an');
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'host_network_gbps', 10, 'Gb/s', 'ieee-802-3an',
       'The network between the machines of a multi-host purchase when the workload gives none (network_gbps): 10 Gb/s Ethernet (10GBASE-T), the usual port of a workstation board or an add-in card. An assumption; a cluster on InfiniBand or 100 GbE should state its own.'
FROM assumption WHERE id = 'pcie4_allreduce_gbs';
DELETE FROM assumption WHERE id = 'pcie4_allreduce_gbs';

-- version 6
-- Issue 14: what the newer parts need.  fp4_tflops is the dense FP4 tensor rate (Blackwell, CDNA
-- 4), like every tensor figure (sparsity says whether 2:4 doubles it).  nvlink_gbs keeps its name
-- but holds the bandwidth of the part's scale-up link of whatever kind, both directions together
-- (0 = none); link_kind says which: nvlink, infinity-fabric (AMD), roce (Intel Gaudi's integrated
-- Ethernet ports), none.  restriction is a dated sentence on the export rules that restrict the
-- part (or that the part was made to meet), with its source.
ALTER TABLE gpu ADD COLUMN fp4_tflops REAL;
ALTER TABLE gpu ADD COLUMN link_kind TEXT
    CHECK (link_kind IN ('nvlink', 'infinity-fabric', 'roce', 'none'));
ALTER TABLE gpu ADD COLUMN restriction TEXT;

-- A GPU's indexed text names its link by kind, and holds its restriction.
DROP VIEW kb_text;
DROP VIEW kb_text_gpu;
CREATE VIEW kb_text_gpu AS
SELECT g.rowid AS row, g.rowid * 8 + 1 AS fid, 'gpu' AS kind, g.id AS ref, g.name AS title,
       g.id || ' ' || g.vendor || ' ' || ifnull(g.architecture, '') || ' ' ||
       ifnull(g.form_factor, '') || ' ' ||
       CASE WHEN g.memory_gb IS NOT NULL THEN printf('%gGB %g GB', g.memory_gb, g.memory_gb) ELSE '' END || ' ' ||
       ifnull(g.memory_type, '') || ' ' ||
       CASE WHEN g.nvlink_gbs > 0 THEN
           CASE ifnull(g.link_kind, 'nvlink')
               WHEN 'infinity-fabric' THEN printf('Infinity Fabric %g GB/s', g.nvlink_gbs)
               WHEN 'roce' THEN printf('RoCE Ethernet %g GB/s', g.nvlink_gbs)
               ELSE printf('NVLink %g GB/s', g.nvlink_gbs)
           END
       ELSE '' END ||
       ' ' || ifnull(g.sparsity, '') || ' ' ||
       ifnull((SELECT group_concat(a.alias, ' ') FROM gpu_alias a WHERE a.gpu = g.id), '') ||
       ' ' || ifnull(g.note, '') || ' ' || ifnull(g.restriction, '') AS body
FROM gpu g;
CREATE VIEW kb_text AS
SELECT * FROM kb_text_gpu UNION ALL SELECT * FROM kb_text_benchmark
UNION ALL SELECT * FROM kb_text_price UNION ALL SELECT * FROM kb_text_source
UNION ALL SELECT * FROM kb_text_claim UNION ALL SELECT * FROM kb_text_rate
UNION ALL SELECT * FROM kb_text_assumption UNION ALL SELECT * FROM kb_text_system;

-- Before version 6 nvlink_gbs was NVLink alone: an upgraded KB's linked rows are NVLink, and an
-- NVIDIA part at 0 has no link; another vendor's 0 said only "no NVLink", so its kind stays
-- unknown.  The update re-indexes every GPU through the view above (gpu_fts_upd).
UPDATE gpu SET link_kind = CASE WHEN nvlink_gbs > 0 THEN 'nvlink'
                                WHEN nvlink_gbs = 0 AND vendor = 'NVIDIA' THEN 'none' END;

-- version 7
-- The model catalog: open language models with the architecture facts their published
-- configurations give, each citing its source.  A workload names one (model = "llama-3-70b")
-- instead of restating the figures.  params counts every parameter (embeddings included);
-- active_params those one token runs through (a mixture of experts: the shared layers and
-- experts_active of the experts; NULL for a dense model, which runs through all).  kv_heads x
-- head_dim is what the attention caches per layer and token, for keys and again for values
-- (grouped-query attention has fewer KV heads than query heads; a model that caches a latent
-- instead, as DeepSeek's multi-head latent attention does, is written so that 2 x kv_heads x
-- head_dim is the values it caches, and its note says so).  ffn is the feed-forward width (of one
-- expert in a mixture; the configuration's intermediate_size), what LoRA adapters are sized by.
-- context is the longest sequence the released configuration takes, in tokens.
CREATE TABLE model (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    family TEXT,
    params REAL NOT NULL CHECK (params > 0),
    active_params REAL CHECK (active_params > 0 AND active_params <= params),
    layers REAL NOT NULL CHECK (layers > 0),
    hidden REAL NOT NULL CHECK (hidden > 0),
    heads REAL NOT NULL CHECK (heads > 0),
    kv_heads REAL NOT NULL CHECK (kv_heads > 0 AND kv_heads <= heads),
    head_dim REAL NOT NULL CHECK (head_dim > 0),
    ffn REAL CHECK (ffn > 0),
    vocab REAL NOT NULL CHECK (vocab > 0),
    context REAL NOT NULL CHECK (context > 0),
    experts REAL CHECK (experts > 0),
    experts_active REAL CHECK (experts_active > 0 AND experts_active <= experts),
    source TEXT NOT NULL REFERENCES source(id),
    note TEXT
);

-- Indexed like every table; all eight slots of rowid x 8 are taken, so a model's entry is the
-- negative of its rowid.
CREATE VIEW kb_text_model AS
SELECT m.rowid AS row, -m.rowid AS fid, 'model' AS kind, m.id AS ref, m.name AS title,
       m.id || ' ' || ifnull(m.family, '') || ' ' ||
       printf('%gB parameters', m.params / 1e9) || ' ' ||
       CASE WHEN m.experts IS NOT NULL
            THEN printf('mixture of experts %g of %g experts, %gB active', m.experts_active,
                        m.experts, ifnull(m.active_params, m.params) / 1e9)
            ELSE '' END || ' ' ||
       printf('%g layers, context %g tokens', m.layers, m.context) || ' ' ||
       ifnull(m.note, '') AS body
FROM model m;
DROP VIEW kb_text;
CREATE VIEW kb_text AS
SELECT * FROM kb_text_gpu UNION ALL SELECT * FROM kb_text_benchmark
UNION ALL SELECT * FROM kb_text_price UNION ALL SELECT * FROM kb_text_source
UNION ALL SELECT * FROM kb_text_claim UNION ALL SELECT * FROM kb_text_rate
UNION ALL SELECT * FROM kb_text_assumption UNION ALL SELECT * FROM kb_text_system
UNION ALL SELECT * FROM kb_text_model;
CREATE TRIGGER model_fts_ins AFTER INSERT ON model BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_model WHERE ref = new.id;
END;
CREATE TRIGGER model_fts_upd AFTER UPDATE ON model BEGIN
    DELETE FROM kb_fts WHERE rowid = -old.rowid;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_model WHERE ref = new.id;
END;
CREATE TRIGGER model_fts_del AFTER DELETE ON model BEGIN
    DELETE FROM kb_fts WHERE rowid = -old.rowid;
END;

-- The decision's two new assumed figures, for language models: an upgraded KB gets the rows with
-- their sources, as kb/data has them; a new KB (no assumption rows yet) gets them from kb/data.
INSERT INTO source (id, title, publisher, url, retrieved, kind, note)
SELECT 'llama-3-paper', 'The Llama 3 Herd of Models (arXiv:2407.21783)', 'Meta AI',
       'https://arxiv.org/abs/2407.21783', '2026-12-01', 'whitepaper',
       'Table 4: Llama 3 405B pre-training on H100 GPUs reached 430, 400 and 380 BF16 TFLOPS per GPU (43%, 41% and 38% model FLOPs utilisation) on 8,192 to 16,384 GPUs.'
WHERE EXISTS (SELECT 1 FROM assumption) AND NOT EXISTS (SELECT 1 FROM source WHERE id = 'llama-3-paper');
INSERT INTO source (id, title, publisher, url, retrieved, kind, note)
SELECT 'mbu-glossary', 'Model bandwidth utilization (glossary)', 'open-source-ai.tech',
       'https://www.open-source-ai.tech/glossary/model-bandwidth-utilization', '2026-12-01', 'article',
       'Model bandwidth utilisation, the share of peak memory bandwidth a serving stack reaches while decoding: well-optimised CUDA stacks (vLLM, TensorRT-LLM) commonly 70 to 85%; a rule of thumb, not a published constant.'
WHERE EXISTS (SELECT 1 FROM assumption) AND NOT EXISTS (SELECT 1 FROM source WHERE id = 'mbu-glossary');
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'llm_mfu', 0.4, 'fraction', 'llama-3-paper',
       'Model FLOPs utilisation of language-model training and prefill when the KB has no measured tokens/s to calibrate it: 400 of an H100''s 989 dense BF16 TFLOPS, Llama 3 405B''s pre-training on 16,384 GPUs (the paper''s 38-43%). A team''s own stack, or a consumer card, may reach less; a measured row of the workload''s benchmark replaces it.'
WHERE EXISTS (SELECT 1 FROM assumption) AND NOT EXISTS (SELECT 1 FROM assumption WHERE id = 'llm_mfu');
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'decode_bandwidth_fraction', 0.7, 'fraction', 'mbu-glossary',
       'The share of a GPU''s memory bandwidth a serving stack reaches while generating tokens (model bandwidth utilisation): the low end of the 70-85% that vLLM and TensorRT-LLM commonly reach. A rule of thumb, not a measurement of this stack.'
WHERE EXISTS (SELECT 1 FROM assumption) AND NOT EXISTS (SELECT 1 FROM assumption WHERE id = 'decode_bandwidth_fraction');

-- version 8
-- Issue 18: a decision reads the measured results of its workload's benchmark alone
-- (kb_benchmarks_find with the workload given); this index makes that a look-up on a KB of
-- millions of rows of other benchmarks.
CREATE INDEX IF NOT EXISTS benchmark_workload ON benchmark(workload, gpu);

-- version 9
-- Issue 18: a decision reads the cloud offers of a GPU and count cheapest first and stops once
-- it has the few it compares (core/decide/decide_rent.c); price_offer_rank is that order, and
-- price_seller finds an offer's rows and its provider's later prices.
CREATE INDEX IF NOT EXISTS price_offer_rank
    ON price(kind, unit, gpu, spot, gpu_count, currency, amount / gpu_fraction);
CREATE INDEX IF NOT EXISTS price_seller
    ON price(gpu, provider, gpu_count, spot, instance, source, as_of);

-- version 10
-- Issue 26: what kind of evidence a price is, described once here.  rank is the order of trust
-- in which a decision chooses a price (1 best); meaning says what a row of that kind is.
CREATE TABLE price_kind (
    id      TEXT PRIMARY KEY NOT NULL,
    rank    INTEGER NOT NULL UNIQUE,
    meaning TEXT NOT NULL
);
INSERT INTO price_kind (id, rank, meaning) VALUES
    ('list', 1, 'the vendor''s or provider''s own current price list, page or API'),
    ('quote', 2, 'a written quote'),
    ('market', 3, 'an observed market price: tracker or sold-listing medians, shop prices'),
    ('from', 4, 'a "from" or "starting at" figure: a lower bound'),
    ('anecdote', 5, 'a price stated in an article or post without its own evidence'),
    ('launch', 6, 'a launch MSRP: a historical fact, not an offer');

-- price.quality now names one of those kinds.  Its CHECK of version 4 cannot be altered, so the
-- table is rebuilt (SQLite's twelve steps; the migration is one transaction): what names price
-- goes first (the text views; its own triggers and indexes go with it), a new table takes every
-- row with its id (so its rowid, and with it its search entry, stays), and all of it is made
-- again.  The KB's connections enforce foreign keys, so REFERENCES holds quality to the kinds.
DROP VIEW kb_text;
DROP VIEW kb_text_price;
CREATE TABLE price_rebuilt (
    id                INTEGER PRIMARY KEY,
    gpu               TEXT NOT NULL REFERENCES gpu(id),
    kind              TEXT NOT NULL CHECK (kind IN ('new', 'used', 'cloud')),
    amount            REAL NOT NULL,
    currency          TEXT NOT NULL,
    unit              TEXT NOT NULL CHECK (unit IN ('card', 'hour')),
    gpu_count         REAL NOT NULL DEFAULT 1,
    region            TEXT,
    provider          TEXT,
    instance          TEXT,
    spot              INTEGER NOT NULL DEFAULT 0,
    as_of             TEXT NOT NULL,
    source            TEXT NOT NULL REFERENCES source(id),
    note              TEXT,
    quality           TEXT REFERENCES price_kind(id),
    gpu_fraction      REAL NOT NULL DEFAULT 1,
    min_billing_hours REAL,
    system            TEXT REFERENCES system(id),
    network_gbps      REAL
);
INSERT INTO price_rebuilt (id, gpu, kind, amount, currency, unit, gpu_count, region, provider,
                           instance, spot, as_of, source, note, quality, gpu_fraction,
                           min_billing_hours, system, network_gbps)
SELECT id, gpu, kind, amount, currency, unit, gpu_count, region, provider, instance, spot, as_of,
       source, note, quality, gpu_fraction, min_billing_hours, system, network_gbps
FROM price;
DROP TABLE price;
ALTER TABLE price_rebuilt RENAME TO price;

CREATE INDEX price_gpu ON price(gpu);
CREATE INDEX price_provider ON price(provider);
CREATE INDEX price_identity ON price(gpu, provider, amount, as_of);
CREATE INDEX price_offer_rank
    ON price(kind, unit, gpu, spot, gpu_count, currency, amount / gpu_fraction);
CREATE INDEX price_seller
    ON price(gpu, provider, gpu_count, spot, instance, source, as_of);
CREATE TRIGGER price_system_match BEFORE INSERT ON price
WHEN new.system IS NOT NULL AND NOT EXISTS
    (SELECT 1 FROM system s WHERE s.id = new.system AND s.gpu = new.gpu
                              AND s.gpu_count = new.gpu_count)
BEGIN
    SELECT RAISE(ABORT, 'a price naming a system must have the system''s gpu and gpu_count');
END;
CREATE VIEW kb_text_price AS
SELECT p.rowid AS row, p.rowid * 8 + 3 AS fid, 'price' AS kind, CAST(p.id AS TEXT) AS ref,
       (SELECT name FROM gpu WHERE id = p.gpu) || ' ' || p.kind ||
       ifnull(' ' || p.provider, '') AS title,
       p.gpu || ' ' || p.kind || ' ' || printf('%g', p.amount) || ' ' || p.currency || ' per ' ||
       p.unit || ' ' || ifnull(p.region, '') || ' ' || ifnull(p.provider, '') || ' ' ||
       ifnull(p.instance, '') || ' ' || CASE WHEN p.spot THEN 'spot' ELSE '' END || ' ' ||
       p.as_of || ' ' || ifnull(p.note, '') AS body
FROM price p;
CREATE VIEW kb_text AS
SELECT * FROM kb_text_gpu UNION ALL SELECT * FROM kb_text_benchmark
UNION ALL SELECT * FROM kb_text_price UNION ALL SELECT * FROM kb_text_source
UNION ALL SELECT * FROM kb_text_claim UNION ALL SELECT * FROM kb_text_rate
UNION ALL SELECT * FROM kb_text_assumption UNION ALL SELECT * FROM kb_text_system
UNION ALL SELECT * FROM kb_text_model;
CREATE TRIGGER price_fts_ins AFTER INSERT ON price BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_price WHERE row = new.rowid;
END;
CREATE TRIGGER price_fts_del AFTER DELETE ON price BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 3;
END;

-- When a card stopped being sold new (YYYY-MM or YYYY-MM-DD, where a source says so; NULL
-- unknown), and whether GPU peer-to-peer over PCIe works on it (1), or its driver disables it
-- (0, as NVIDIA's does on GeForce cards), NULL unknown.
ALTER TABLE gpu ADD COLUMN discontinued TEXT;
ALTER TABLE gpu ADD COLUMN p2p INTEGER CHECK (p2p IN (0, 1));

-- The high end of a "from" price where the KB holds no current list price of that card and
-- count: an upgraded KB gets the row with its source, as kb/data has them; a new KB (no
-- assumption rows here yet) from kb/data.
INSERT INTO source (id, title, publisher, url, retrieved, kind, note)
SELECT 'datareceipts-gpu-pricing', 'GPU pricing: vendors (data receipt 109)', 'Data Receipts',
       'https://raw.githubusercontent.com/datareceipts/data-receipts/main/109-gpu-pricing/vendors.json',
       '2026-12-01', 'dataset',
       'Prices transcribed by hand from each vendor''s public pricing page, with the page''s URL and the date read per vendor. RunPod (https://www.runpod.io/pricing, read 2026-11-09), per GPU-hour, Secure / Community Cloud: H100 SXM $3.99 / $2.69, H100 PCIe $2.89 / $1.99, H100 NVL $3.19 / $2.59, A100 PCIe 80GB $1.79 / $1.19, A100 SXM 80GB $1.79 / $1.39.'
WHERE EXISTS (SELECT 1 FROM assumption)
  AND NOT EXISTS (SELECT 1 FROM source WHERE id = 'datareceipts-gpu-pricing');
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'from_high_factor', 1.48, 'ratio', 'datareceipts-gpu-pricing',
       'The high end of a "from" price, as a multiple of its figure, where the KB holds no current list price of that card and count: RunPod lists the H100 SXM at USD 2.69 per GPU-hour on its marketplace of third-party hosts (Community Cloud, the floor) and 3.99 in its own data centres (Secure Cloud), 3.99 / 2.69 = 1.48 (read 2026-11-09).'
WHERE EXISTS (SELECT 1 FROM assumption)
  AND NOT EXISTS (SELECT 1 FROM assumption WHERE id = 'from_high_factor');

-- version 11
-- Issue 27: the cloud providers the KB's prices name, each once: what kind of seller it is
-- (a hyperscaler; a specialised GPU cloud; a marketplace or community cloud, where hosts list
-- their own machines; a decentralised network; NULL unknown), whether it publishes a service level agreement
-- (sla 1, its page in sla_url; 0 where its source shows none), and the regions its GPUs are in
-- (";"-separated, as prices name regions: US, EU, CN, APAC, ...; NULL unknown).  A workload with
-- production = true rents only from providers with an SLA; one with a region is told when a
-- provider does not serve it.  Read by name, as price.provider writes it.
CREATE TABLE provider (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL UNIQUE,
    kind TEXT CHECK (kind IN ('hyperscaler', 'specialised', 'marketplace',
                                       'decentralised')),
    sla INTEGER NOT NULL CHECK (sla IN (0, 1)),
    sla_url TEXT,
    regions TEXT,
    source TEXT NOT NULL REFERENCES source(id),
    note TEXT
);

-- Issue 27, hosts sized to their cards: the machine cards bought one by one go into (a desktop,
-- a workstation, a server of PCIe slots), with the most cards it takes, its own draw at the wall
-- besides them, and its price with that price's kind of evidence and date.  A decision takes the
-- smallest host that holds an option's cards per machine.
CREATE TABLE host (
    id        TEXT PRIMARY KEY NOT NULL,
    name      TEXT NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('desktop', 'workstation', 'server')),
    max_cards REAL NOT NULL CHECK (max_cards > 0),
    power_w   REAL NOT NULL CHECK (power_w >= 0),
    price     REAL NOT NULL CHECK (price >= 0),
    currency  TEXT NOT NULL,
    quality   TEXT NOT NULL REFERENCES price_kind(id),
    as_of     TEXT NOT NULL,
    source    TEXT NOT NULL REFERENCES source(id),
    note      TEXT
);

-- A host is found by search like any fact: its entries in the FTS index have ids below every
-- model's (-rowid), so the two never meet.
CREATE VIEW kb_text_host AS
SELECT h.rowid AS row, -(h.rowid + 1000000000000) AS fid, 'host' AS kind, h.id AS ref,
       h.name AS title,
       h.id || ' ' || h.kind || ' ' || printf('%g cards', h.max_cards) || ' ' ||
       printf('%g W', h.power_w) || ' ' || printf('%g', h.price) || ' ' || h.currency || ' ' ||
       h.as_of || ' ' || ifnull(h.note, '') AS body
FROM host h;
DROP VIEW kb_text;
CREATE VIEW kb_text AS
SELECT * FROM kb_text_gpu UNION ALL SELECT * FROM kb_text_benchmark
UNION ALL SELECT * FROM kb_text_price UNION ALL SELECT * FROM kb_text_source
UNION ALL SELECT * FROM kb_text_claim UNION ALL SELECT * FROM kb_text_rate
UNION ALL SELECT * FROM kb_text_assumption UNION ALL SELECT * FROM kb_text_system
UNION ALL SELECT * FROM kb_text_model UNION ALL SELECT * FROM kb_text_host;
CREATE TRIGGER host_fts_ins AFTER INSERT ON host BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_host WHERE ref = new.id;
END;
CREATE TRIGGER host_fts_upd AFTER UPDATE ON host BEGIN
    DELETE FROM kb_fts WHERE rowid = -(old.rowid + 1000000000000);
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_host WHERE ref = new.id;
END;
CREATE TRIGGER host_fts_del AFTER DELETE ON host BEGIN
    DELETE FROM kb_fts WHERE rowid = -(old.rowid + 1000000000000);
END;

-- Support and colocation, the ownership costs a decision now counts: an upgraded KB gets their
-- rows with their sources, as kb/data has them (a new KB, with no assumption rows yet, from
-- kb/data); its host table stays empty until gpuwise kb import kb/data/hosts.csv, and a decision
-- falls back on host_cost and host_power_w meanwhile.
INSERT INTO source (id, title, publisher, url, retrieved, kind, note)
SELECT 'librarytechnology-hw-maintenance', 'Hardware maintenance contracts',
       'Library Technology Guides', 'https://librarytechnology.org/document/7428', '2026-12-06',
       'article',
       'A computer hardware maintenance contract usually works out to an annual cost of between 10 and 12 percent of the total purchase price of the hardware, whoever it is contracted with.'
WHERE EXISTS (SELECT 1 FROM assumption)
  AND NOT EXISTS (SELECT 1 FROM source WHERE id = 'librarytechnology-hw-maintenance');
INSERT INTO source (id, title, publisher, url, retrieved, kind, note)
SELECT 'encoradvisors-colocation-2026', 'Data Center Colocation Pricing: 2026 Cost Per Rack & kW',
       'Encor Advisors', 'https://encoradvisors.com/data-center-colocation-pricing/', '2026-12-06',
       'article',
       'Industry reporting on primary North American colocation markets: 250-500 kW deployments approaching about USD 196 per kW per month in H2 2025.'
WHERE EXISTS (SELECT 1 FROM assumption)
  AND NOT EXISTS (SELECT 1 FROM source WHERE id = 'encoradvisors-colocation-2026');
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'support_fraction', 0.1, 'fraction', 'librarytechnology-hw-maintenance',
       'Support and warranty a year, as a share of the hardware''s purchase price: a hardware maintenance contract usually costs 10-12% of the purchase price a year; the low end.'
WHERE EXISTS (SELECT 1 FROM assumption)
  AND NOT EXISTS (SELECT 1 FROM assumption WHERE id = 'support_fraction');
INSERT INTO assumption (id, value, unit, source, note)
SELECT 'colocation_per_kw_month', 196, 'USD', 'encoradvisors-colocation-2026',
       'Colocation per kW of power a month, where a purchase draws more than the site''s power: 250-500 kW deployments in primary North American markets, H2 2025; the electricity is costed apart.'
WHERE EXISTS (SELECT 1 FROM assumption)
  AND NOT EXISTS (SELECT 1 FROM assumption WHERE id = 'colocation_per_kw_month');

-- version 12
-- (catalog) Issue 28: each model's canonical Hugging Face repository id ("meta-llama/Llama-3.1-8B"),
-- by which a workload may name it as people copy it from the hub ("meta-llama/Llama-3.1-8B-Instruct"
-- resolves to the same row).  NULL where the model has none (LLaMA 65B, GPT-3).  An upgraded KB's
-- rows get theirs, and the catalog's newer models, with gpuwise kb import kb/data/models.csv.
ALTER TABLE model ADD COLUMN hf_repo TEXT;

-- (memory) Issue 28, real capacities: a card's memory as the driver reports it, nvidia-smi's "FB Memory
-- Usage" total in MiB of a published dump (an H100 80GB holds 81,559 MiB, 85.5e9 bytes, not
-- 80e9), which a decision compares a need in bytes with, and the source publishing the dump.  A
-- KB upgraded from version 11 gets the figures with gpuwise kb import kb/data/sources.csv
-- kb/data/gpus.csv; until then a decision estimates each card's from its nominal memory and says
-- so.
ALTER TABLE gpu ADD COLUMN memory_mib REAL CHECK (memory_mib > 0);
ALTER TABLE gpu ADD COLUMN memory_mib_source TEXT REFERENCES source(id);

-- (precision) Issue 28, one precision table: which architectures compute each number format, in tensor (or
-- matrix) cores for a compute format, or with weight-only kernels for FP8 or FP4 weights
-- dequantized to 16 bits (fp8-w8a16, fp4-w4a16), each with its source; and where training at a
-- format was measured against BF16 on an architecture, the speed-up the model uses with its
-- band: the lowest and the highest published measurement, each with its source.  An upgraded
-- KB gets the rows with gpuwise kb import kb/data/precision_support.csv; until then a decision
-- reads support from the GPUs' rate figures and says so.
CREATE TABLE precision_support (
    precision          TEXT NOT NULL CHECK (precision IN ('fp16', 'bf16', 'tf32', 'fp8', 'int8',
                                                          'fp4', 'fp8-w8a16', 'fp4-w4a16')),
    architecture       TEXT NOT NULL,
    train_speedup      REAL CHECK (train_speedup > 0),
    train_speedup_low  REAL CHECK (train_speedup_low > 0),
    low_source         TEXT REFERENCES source(id),
    train_speedup_high REAL CHECK (train_speedup_high > 0),
    high_source        TEXT REFERENCES source(id),
    source             TEXT NOT NULL REFERENCES source(id),
    note               TEXT,
    PRIMARY KEY (precision, architecture)
);

-- (benchmark) -- Issue 28, measured language-model results: a row says which fine-tune it measured (method:
-- full, lora or qlora; empty for pre-training; serving: empty, or speculative where speculative
-- decoding verified several tokens a step) and the tokens of its scenario
-- (input_tokens: a training sequence's tokens, or a served request's mean prompt; output_tokens:
-- a served request's mean output), which the model needs to predict the row.  A decision reads
-- every row measured in tokens/s (each names a model of the catalog): the partial index makes
-- that a look-up on a KB of millions of rows of other benchmarks.
ALTER TABLE benchmark ADD COLUMN method TEXT CHECK (method IN ('full', 'lora', 'qlora', 'speculative'));
ALTER TABLE benchmark ADD COLUMN input_tokens REAL CHECK (input_tokens > 0);
ALTER TABLE benchmark ADD COLUMN output_tokens REAL CHECK (output_tokens > 0);
CREATE INDEX IF NOT EXISTS benchmark_tokens ON benchmark(workload) WHERE unit = 'tokens/s';

-- version 13 (layout)
-- (benchmark) -- Issue 28, a measured language-model row's parallel layout as its source states it
-- (MLPerf Training's config file names, NeMo's and Megatron Bridge's performance tables): the
-- tensor-, pipeline-, context- and expert-parallel widths, the virtual pipeline stages each GPU
-- holds (interleaved scheduling), and the sequences a micro-batch and a step of all GPUs; NULL
-- where the source does not state it.  A row with a stated layout is predicted with what that
-- layout costs (decide_llm_layout_share); an upgraded KB gets the figures with gpuwise kb import
-- kb/data/benchmarks.csv, until then its rows are predicted as laid out on one GPU each.
ALTER TABLE benchmark ADD COLUMN tensor_parallel REAL CHECK (tensor_parallel >= 1 AND tensor_parallel = CAST(tensor_parallel AS INTEGER));
ALTER TABLE benchmark ADD COLUMN pipeline_parallel REAL CHECK (pipeline_parallel >= 1 AND pipeline_parallel = CAST(pipeline_parallel AS INTEGER));
ALTER TABLE benchmark ADD COLUMN context_parallel REAL CHECK (context_parallel >= 1 AND context_parallel = CAST(context_parallel AS INTEGER));
ALTER TABLE benchmark ADD COLUMN expert_parallel REAL CHECK (expert_parallel >= 1 AND expert_parallel = CAST(expert_parallel AS INTEGER));
ALTER TABLE benchmark ADD COLUMN virtual_pipeline REAL CHECK (virtual_pipeline >= 1 AND virtual_pipeline = CAST(virtual_pipeline AS INTEGER));
ALTER TABLE benchmark ADD COLUMN micro_batch REAL CHECK (micro_batch > 0);
ALTER TABLE benchmark ADD COLUMN global_batch REAL CHECK (global_batch > 0);

-- version 14 (listings)
-- Issue 30 item 11 and issue 31 item 1.  An import looks every row up by all of its columns
-- (kb_write.c store_row: an identical row changes nothing); the identity indexes of version 2
-- named four columns, so 20,000 results that shared them and differed in another (a batch, a
-- note) made each look-up scan every earlier one: quadratic (111 s).  The *_identity indexes
-- now hold every column a row is compared on, its identity (kb_table.c's KB_KEY columns)
-- first, so an identical row is found in one descent whatever the rows share.  The tables whose
-- rows share identities (a price range's two ends) also look up the rows of one identity that
-- existed before the import (store_row's rowid bound): the *_key indexes, of the identity
-- alone, keep the rowid right after it, so that is one range however many rows the import
-- added to that identity.  A column added to one of these tables later belongs at the end of
-- its identity index (tests/cli/hostile_import.sh checks that every column is there).
-- `kb sources` counts each table's rows by source in one GROUP BY: benchmark_source makes that
-- a walk of an index instead of a sort of every result.  (`prices list`'s GROUP BY of the cloud
-- offers by provider reads price_offer_rank's kind = 'cloud' rows: an index of kind and
-- provider would halve it, but SQLite 3.40 then answers `offers --where "provider = a or
-- provider = b"`, compared without case, from that index's binary order: no rows.)
DROP INDEX IF EXISTS benchmark_identity;
CREATE INDEX benchmark_identity ON benchmark(gpu, workload, metric, value, gpu_count, unit,
    precision, batch, framework, interconnect, power_w, source, note, method, input_tokens,
    output_tokens, tensor_parallel, pipeline_parallel, context_parallel, expert_parallel,
    virtual_pipeline, micro_batch, global_batch);
DROP INDEX IF EXISTS price_identity;
CREATE INDEX price_identity ON price(gpu, provider, as_of, kind, gpu_count, gpu_fraction, region,
    instance, spot, source, amount, currency, unit, note, quality, min_billing_hours, system,
    network_gbps);
CREATE INDEX price_key ON price(gpu, provider, as_of, kind, gpu_count, gpu_fraction, region,
    instance, spot, source);
CREATE INDEX claim_identity ON claim(subject, claim, source, status, correction,
    correction_source);
CREATE INDEX claim_key ON claim(subject, claim, source);
CREATE INDEX benchmark_source ON benchmark(source);

-- version 15 (recompute)
-- (benchmark) -- Issue 28, the activation recomputation a measured training row ran with, as its
-- source (a performance recipe's configuration) states it: none; selective (a few modules'
-- activations recomputed: Megatron's recompute_granularity "selective"); full (whole layers
-- recomputed in the backward pass), over recompute_layers of the model's layers where the
-- source recomputes only some (Megatron's block method: recompute_num_layers a pipeline stage);
-- NULL where the source does not state it.  A published "model TFLOP/s" counts no recomputed
-- FLOPs, so a row that recomputed did more work than its tokens imply: the model charges it as
-- a workload's activation_checkpointing (model_llm_train_flops_per_token).  Both columns end the
-- identity index (version 14).  recompute's check is written with OR, not IN: SQLite checks an
-- IN list through a temporary table opened and freed at every insert, which made a 1M-row import
-- 7x slower.
ALTER TABLE benchmark ADD COLUMN recompute TEXT
    CHECK (recompute = 'none' OR recompute = 'selective' OR recompute = 'full');
ALTER TABLE benchmark ADD COLUMN recompute_layers REAL CHECK (recompute_layers >= 1 AND recompute_layers = CAST(recompute_layers AS INTEGER));
DROP INDEX IF EXISTS benchmark_identity;
CREATE INDEX benchmark_identity ON benchmark(gpu, workload, metric, value, gpu_count, unit,
    precision, batch, framework, interconnect, power_w, source, note, method, input_tokens,
    output_tokens, tensor_parallel, pipeline_parallel, context_parallel, expert_parallel,
    virtual_pipeline, micro_batch, global_batch, recompute, recompute_layers);

-- version 16 (pipeline layout)
-- (benchmark) -- Issue 28, what each pipeline stage of a measured training row held, in
-- Megatron's own pipeline_model_parallel_layout notation as its recipe states it (stages
-- separated by '|'; E embedding, t transformer layer, m multi-token-prediction layer, L loss and
-- output head; X*N and (...)*N repeats; virtual chunks in order, chunk i on physical stage i mod
-- pipeline_parallel); NULL: the layers split evenly.  The slowest stage sets a pipeline's pace,
-- so the model charges the heaviest physical stage's work over the mean, and the MTP layers'
-- FLOPs, which a model's 6 x parameters does not count.  The notation is checked in C at every
-- write (kb_layout.c), not by a CHECK: a row's text is parsed, not matched against a list.  The
-- column ends the identity index (version 14).
ALTER TABLE benchmark ADD COLUMN pipeline_layout TEXT;
DROP INDEX IF EXISTS benchmark_identity;
CREATE INDEX benchmark_identity ON benchmark(gpu, workload, metric, value, gpu_count, unit,
    precision, batch, framework, interconnect, power_w, source, note, method, input_tokens,
    output_tokens, tensor_parallel, pipeline_parallel, context_parallel, expert_parallel,
    virtual_pipeline, micro_batch, global_batch, recompute, recompute_layers, pipeline_layout);

-- (catalog) Issue 28, the width a head's two attention products run over where it differs from
-- the cache's: the mean of q.k's and scores.v's (a model's attention FLOPs are 4 x tokens x heads
-- x that a layer and token attending to `tokens` positions).  Multi-head latent attention is
-- written as 1 KV head of (latent + rotary key) / 2 values, which sizes its cache, while its
-- products run over qk_nope_head_dim + qk_rope_head_dim (q.k) and v_head_dim (scores.v): 192
-- and 128 a head for DeepSeek-V3, so 160, not 288.  NULL: head_dim.  An upgraded KB gets the
-- figures with gpuwise kb import kb/data/models.csv; until then its models count head_dim.
ALTER TABLE model ADD COLUMN attention_head_dim REAL CHECK (attention_head_dim > 0);

-- (catalog) Issue 28, the width a decode step's attention products run over where it differs
-- from head_dim: serving engines decode multi-head latent attention in its absorbed form
-- (W_UK folded into the query, W_UV into the output: deepseek-v2-paper), so a step's q.k runs
-- over the cached latent and rotary key (512 + 64 = 576 values a head) and scores.v over the
-- latent (512): a mean of 544 for DeepSeek-V3, not the cache's 288 (a prompt still runs over
-- attention_head_dim's 160).  The bytes a step reads are the cache's, unchanged.  NULL: head_dim.
-- An upgraded KB gets the figures with gpuwise kb import kb/data/models.csv.
ALTER TABLE model ADD COLUMN decode_attention_head_dim REAL CHECK (decode_attention_head_dim > 0);

-- version 17 (sharding)
-- (benchmark) -- Issue 28, how a measured training row's data-parallel replicas shard the model's
-- state, as its source states it, in a workload's own words: none; zero1 (the optimizer state:
-- Megatron's distributed optimizer); zero2 (and the gradients); zero3 (and the parameters:
-- PyTorch FSDP, as torchtitan runs, or Megatron FSDP); NULL where the source does not state it.
-- A fully sharded run gathers each layer's parameters before using them and scatters its
-- gradients after, where a tensor- and pipeline-parallel one exchanges activations: the two
-- stacks reach different shares of a GPU's peak, so a workload's calibration prefers the rows
-- of its own (decide_llm_calibration.c).  The column ends the identity index (version 14).
-- Its check is written with OR, not IN, as recompute's (version 15): an IN list is checked
-- through a temporary table opened at every insert, which made a 50k-row import 5x slower.
ALTER TABLE benchmark ADD COLUMN sharding TEXT
    CHECK (sharding = 'none' OR sharding = 'zero1' OR sharding = 'zero2' OR sharding = 'zero3');
DROP INDEX IF EXISTS benchmark_identity;
CREATE INDEX benchmark_identity ON benchmark(gpu, workload, metric, value, gpu_count, unit,
    precision, batch, framework, interconnect, power_w, source, note, method, input_tokens,
    output_tokens, tensor_parallel, pipeline_parallel, context_parallel, expert_parallel,
    virtual_pipeline, micro_batch, global_batch, recompute, recompute_layers, pipeline_layout,
    sharding);

-- version 18 (connection objects)
-- Issue 31: SQLite parses every object of a file's schema when a connection first prepares a
-- statement, and the full-text index's 11 views and 26 triggers were 2.4 M of the 6.8 M
-- instructions of a `kb show` that reads none of them.  The views and the triggers that read
-- them are now made per connection, as TEMP objects, by the connections that use them (the
-- "-- connection" sections at the end of this file; kb_file.c): the views by whatever reads the
-- index's text (kb source's titles, kb check), the triggers by every connection that writes.  A
-- row added or changed behind gpuwise's back (the sqlite3 shell) is not indexed, and kb check
-- says so.  Stay in the file: price_system_match, a constraint, and the seven triggers that take
-- a deleted row's entry out of the index, which read no view (0.13 M instructions to parse): a
-- row deleted by any program leaves no entry for a row added later with its rowid to collide
-- with.
DROP VIEW IF EXISTS kb_text;
DROP VIEW IF EXISTS kb_text_gpu;
DROP VIEW IF EXISTS kb_text_benchmark;
DROP VIEW IF EXISTS kb_text_price;
DROP VIEW IF EXISTS kb_text_source;
DROP VIEW IF EXISTS kb_text_claim;
DROP VIEW IF EXISTS kb_text_rate;
DROP VIEW IF EXISTS kb_text_assumption;
DROP VIEW IF EXISTS kb_text_system;
DROP VIEW IF EXISTS kb_text_model;
DROP VIEW IF EXISTS kb_text_host;
DROP TRIGGER IF EXISTS gpu_fts_ins;
DROP TRIGGER IF EXISTS gpu_fts_upd;
DROP TRIGGER IF EXISTS alias_fts_ins;
DROP TRIGGER IF EXISTS alias_fts_del;
DROP TRIGGER IF EXISTS source_fts_ins;
DROP TRIGGER IF EXISTS source_fts_upd;
DROP TRIGGER IF EXISTS rate_fts_ins;
DROP TRIGGER IF EXISTS rate_fts_upd;
DROP TRIGGER IF EXISTS assumption_fts_ins;
DROP TRIGGER IF EXISTS assumption_fts_upd;
DROP TRIGGER IF EXISTS system_fts_ins;
DROP TRIGGER IF EXISTS system_fts_upd;
DROP TRIGGER IF EXISTS model_fts_ins;
DROP TRIGGER IF EXISTS model_fts_upd;
DROP TRIGGER IF EXISTS host_fts_ins;
DROP TRIGGER IF EXISTS host_fts_upd;
DROP TRIGGER IF EXISTS benchmark_fts_ins;
DROP TRIGGER IF EXISTS price_fts_ins;
DROP TRIGGER IF EXISTS claim_fts_ins;

-- Issue 31: every GPU's names (id, name, each alias) normalised as resolution compares them
-- ("NVIDIA GeForce RTX 3090" -> "rtx3090": kb_name_norm, registered as the SQL function
-- gw_name_key on every connection), so a name that is one of them whole is one seek of this
-- key instead of a pass over every GPU's names (1 M instructions for `kb show 3090` on a KB of
-- 840 GPUs).  The writers' triggers keep it (the "-- connection (writes)" section).
CREATE TABLE gpu_name_key (
    name_key TEXT NOT NULL,
    gpu      TEXT NOT NULL,
    PRIMARY KEY (name_key, gpu)
) WITHOUT ROWID;
INSERT OR IGNORE INTO gpu_name_key (name_key, gpu)
SELECT gw_name_key(id), id FROM gpu
UNION ALL SELECT gw_name_key(name), id FROM gpu
UNION ALL SELECT gw_name_key(alias), gpu FROM gpu_alias;
DELETE FROM gpu_name_key WHERE name_key = '';

-- version 19 (long billing)
-- (price) -- A finance review: an AWS EC2 Capacity Block is reserved for 1 to 14 days in 1-day
-- steps, then in 7-day steps up to 182 days (aws-ec2-capacity-blocks-pricing), so a 32.5-day
-- job holds a 35-day block, not 33 days of min_billing_hours' whole days.  A rental longer than
-- long_billing_after_hours is billed in steps of long_billing_hours beyond it: billed hours =
-- after + ceil((hours - after) / long) x long (32.5 days: 14 + 3 x 7 = 35 days).  Both or
-- neither, cloud only, each at least min_billing_hours (kb_table.c's price rule).  NULL: the
-- first step all the way.  An upgraded KB gets the figures with gpuwise kb import
-- kb/data/prices.csv; until then its Capacity Blocks are billed in whole days.  Both columns
-- end the identity index (version 14).
ALTER TABLE price ADD COLUMN long_billing_after_hours REAL CHECK (long_billing_after_hours > 0);
ALTER TABLE price ADD COLUMN long_billing_hours REAL CHECK (long_billing_hours > 0);
DROP INDEX IF EXISTS price_identity;
CREATE INDEX price_identity ON price(gpu, provider, as_of, kind, gpu_count, gpu_fraction, region,
    instance, spot, source, amount, currency, unit, note, quality, min_billing_hours, system,
    network_gbps, long_billing_after_hours, long_billing_hours);

-- connection (views)
-- Made on a connection that reads the index's text (kb_text_views in kb_file.c), never stored
-- in the file (version 18).  The text each row contributes to the index.  An index row's rowid
-- is the table row's rowid times 8 plus a table number, so a trigger finds its entry without
-- scanning; `row` is the table's rowid, so a trigger's lookup through a view stays an index
-- lookup.  A column added to a table that search should find is added to its view here.
CREATE TEMP VIEW kb_text_benchmark AS
SELECT b.rowid AS row, b.rowid * 8 + 2 AS fid, 'benchmark' AS kind, CAST(b.id AS TEXT) AS ref,
       (SELECT name FROM gpu WHERE id = b.gpu) || ' ' || b.workload AS title,
       b.gpu || ' ' || printf('%gx', b.gpu_count) || ' ' || b.workload || ' ' || b.metric || ' ' ||
       printf('%g', b.value) || ' ' || b.unit || ' ' || ifnull(b.precision, '') || ' ' ||
       ifnull(b.framework, '') || ' ' || ifnull(b.interconnect, '') || ' ' ||
       ifnull(b.note, '') AS body
FROM benchmark b;
CREATE TEMP VIEW kb_text_source AS
SELECT s.rowid AS row, s.rowid * 8 + 4 AS fid, 'source' AS kind, s.id AS ref, s.title AS title,
       s.id || ' ' || ifnull(s.publisher, '') || ' ' || ifnull(s.url, '') || ' ' ||
       ifnull(s.kind, '') || ' ' || ifnull(s.note, '') AS body
FROM source s;
CREATE TEMP VIEW kb_text_claim AS
SELECT c.rowid AS row, c.rowid * 8 + 5 AS fid, 'claim' AS kind, CAST(c.id AS TEXT) AS ref,
       c.subject || ' (' || c.status || ')' AS title,
       c.claim || ' ' || ifnull(c.correction, '') AS body
FROM claim c;
CREATE TEMP VIEW kb_text_rate AS
SELECT r.rowid AS row, r.rowid * 8 + 6 AS fid, 'rate' AS kind, r.currency || '@' || r.as_of AS ref,
       r.currency || ' per USD' AS title,
       printf('%g', r.per_usd) || ' ' || r.currency || ' per USD ' || r.as_of AS body
FROM rate r;
CREATE TEMP VIEW kb_text_assumption AS
SELECT a.rowid AS row, a.rowid * 8 + 7 AS fid, 'assumption' AS kind, a.id AS ref,
       'assumed ' || printf('%g', a.value) || ' ' || a.unit AS title,
       a.id || ' assumed ' || printf('%g', a.value) || ' ' || a.unit || ' ' ||
       ifnull(a.note, '') AS body
FROM assumption a;
CREATE TEMP VIEW kb_text_system AS
SELECT s.rowid AS row, s.rowid * 8 AS fid, 'system' AS kind, s.id AS ref, s.name AS title,
       s.id || ' ' || s.gpu || ' ' || printf('%gx', s.gpu_count) || ' ' ||
       (SELECT name FROM gpu WHERE id = s.gpu) || ' ' ||
       CASE WHEN s.power_w IS NOT NULL THEN printf('%g W', s.power_w) ELSE '' END || ' ' ||
       ifnull(s.note, '') AS body
FROM system s;
CREATE TEMP VIEW kb_text_gpu AS
SELECT g.rowid AS row, g.rowid * 8 + 1 AS fid, 'gpu' AS kind, g.id AS ref, g.name AS title,
       g.id || ' ' || g.vendor || ' ' || ifnull(g.architecture, '') || ' ' ||
       ifnull(g.form_factor, '') || ' ' ||
       CASE WHEN g.memory_gb IS NOT NULL THEN printf('%gGB %g GB', g.memory_gb, g.memory_gb) ELSE '' END || ' ' ||
       ifnull(g.memory_type, '') || ' ' ||
       CASE WHEN g.nvlink_gbs > 0 THEN
           CASE ifnull(g.link_kind, 'nvlink')
               WHEN 'infinity-fabric' THEN printf('Infinity Fabric %g GB/s', g.nvlink_gbs)
               WHEN 'roce' THEN printf('RoCE Ethernet %g GB/s', g.nvlink_gbs)
               ELSE printf('NVLink %g GB/s', g.nvlink_gbs)
           END
       ELSE '' END ||
       ' ' || ifnull(g.sparsity, '') || ' ' ||
       ifnull((SELECT group_concat(a.alias, ' ') FROM gpu_alias a WHERE a.gpu = g.id), '') ||
       ' ' || ifnull(g.note, '') || ' ' || ifnull(g.restriction, '') AS body
FROM gpu g;
CREATE TEMP VIEW kb_text_model AS
SELECT m.rowid AS row, -m.rowid AS fid, 'model' AS kind, m.id AS ref, m.name AS title,
       m.id || ' ' || ifnull(m.family, '') || ' ' ||
       printf('%gB parameters', m.params / 1e9) || ' ' ||
       CASE WHEN m.experts IS NOT NULL
            THEN printf('mixture of experts %g of %g experts, %gB active', m.experts_active,
                        m.experts, ifnull(m.active_params, m.params) / 1e9)
            ELSE '' END || ' ' ||
       printf('%g layers, context %g tokens', m.layers, m.context) || ' ' ||
       ifnull(m.note, '') AS body
FROM model m;
CREATE TEMP VIEW kb_text_price AS
SELECT p.rowid AS row, p.rowid * 8 + 3 AS fid, 'price' AS kind, CAST(p.id AS TEXT) AS ref,
       (SELECT name FROM gpu WHERE id = p.gpu) || ' ' || p.kind ||
       ifnull(' ' || p.provider, '') AS title,
       p.gpu || ' ' || p.kind || ' ' || printf('%g', p.amount) || ' ' || p.currency || ' per ' ||
       p.unit || ' ' || ifnull(p.region, '') || ' ' || ifnull(p.provider, '') || ' ' ||
       ifnull(p.instance, '') || ' ' || CASE WHEN p.spot THEN 'spot' ELSE '' END || ' ' ||
       p.as_of || ' ' || ifnull(p.note, '') AS body
FROM price p;
CREATE TEMP VIEW kb_text_host AS
SELECT h.rowid AS row, -(h.rowid + 1000000000000) AS fid, 'host' AS kind, h.id AS ref,
       h.name AS title,
       h.id || ' ' || h.kind || ' ' || printf('%g cards', h.max_cards) || ' ' ||
       printf('%g W', h.power_w) || ' ' || printf('%g', h.price) || ' ' || h.currency || ' ' ||
       h.as_of || ' ' || ifnull(h.note, '') AS body
FROM host h;
CREATE TEMP VIEW kb_text AS
SELECT * FROM kb_text_gpu UNION ALL SELECT * FROM kb_text_benchmark
UNION ALL SELECT * FROM kb_text_price UNION ALL SELECT * FROM kb_text_source
UNION ALL SELECT * FROM kb_text_claim UNION ALL SELECT * FROM kb_text_rate
UNION ALL SELECT * FROM kb_text_assumption UNION ALL SELECT * FROM kb_text_system
UNION ALL SELECT * FROM kb_text_model UNION ALL SELECT * FROM kb_text_host;

-- connection (writes)
-- Made on every connection that writes, after the views: the triggers that keep the full-text
-- index and the name keys (version 18) as rows are written.  kb_name_keys: each GPU's name
-- keys as they should be, which the name triggers copy from for the GPU a write changed.
CREATE TEMP VIEW kb_name_keys AS
SELECT gw_name_key(id) AS name_key, id AS gpu FROM gpu
UNION ALL SELECT gw_name_key(name), id FROM gpu
UNION ALL SELECT gw_name_key(alias), gpu FROM gpu_alias;
CREATE TEMP TRIGGER gpu_name_ins AFTER INSERT ON gpu BEGIN
    INSERT OR IGNORE INTO gpu_name_key (name_key, gpu)
    SELECT name_key, gpu FROM kb_name_keys WHERE gpu = new.id AND name_key <> '';
END;
CREATE TEMP TRIGGER gpu_name_upd AFTER UPDATE OF id, name ON gpu BEGIN
    DELETE FROM gpu_name_key WHERE gpu = old.id;
    INSERT OR IGNORE INTO gpu_name_key (name_key, gpu)
    SELECT name_key, gpu FROM kb_name_keys WHERE gpu = new.id AND name_key <> '';
END;
CREATE TEMP TRIGGER gpu_name_del AFTER DELETE ON gpu BEGIN
    DELETE FROM gpu_name_key WHERE gpu = old.id;
END;
CREATE TEMP TRIGGER alias_name_ins AFTER INSERT ON gpu_alias BEGIN
    INSERT OR IGNORE INTO gpu_name_key (name_key, gpu)
    SELECT gw_name_key(new.alias), new.gpu WHERE gw_name_key(new.alias) <> '';
END;
-- another name of the GPU may have the deleted alias's key: the GPU's keys are made again
CREATE TEMP TRIGGER alias_name_del AFTER DELETE ON gpu_alias BEGIN
    DELETE FROM gpu_name_key WHERE gpu = old.gpu;
    INSERT OR IGNORE INTO gpu_name_key (name_key, gpu)
    SELECT name_key, gpu FROM kb_name_keys WHERE gpu = old.gpu AND name_key <> '';
END;
CREATE TEMP TRIGGER alias_name_upd AFTER UPDATE ON gpu_alias BEGIN
    DELETE FROM gpu_name_key WHERE gpu IN (old.gpu, new.gpu);
    INSERT OR IGNORE INTO gpu_name_key (name_key, gpu)
    SELECT name_key, gpu FROM kb_name_keys WHERE gpu IN (old.gpu, new.gpu) AND name_key <> '';
END;
CREATE TEMP TRIGGER gpu_fts_ins AFTER INSERT ON gpu BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_gpu WHERE ref = new.id;
END;
CREATE TEMP TRIGGER gpu_fts_upd AFTER UPDATE ON gpu BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 1;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_gpu WHERE ref = new.id;
END;
CREATE TEMP TRIGGER alias_fts_ins AFTER INSERT ON gpu_alias BEGIN
    DELETE FROM kb_fts WHERE rowid = (SELECT rowid * 8 + 1 FROM gpu WHERE id = new.gpu);
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_gpu WHERE ref = new.gpu;
END;
CREATE TEMP TRIGGER alias_fts_del AFTER DELETE ON gpu_alias BEGIN
    DELETE FROM kb_fts WHERE rowid = (SELECT rowid * 8 + 1 FROM gpu WHERE id = old.gpu);
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_gpu WHERE ref = old.gpu;
END;
CREATE TEMP TRIGGER source_fts_ins AFTER INSERT ON source BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_source WHERE ref = new.id;
END;
CREATE TEMP TRIGGER source_fts_upd AFTER UPDATE ON source BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 4;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_source WHERE ref = new.id;
END;
CREATE TEMP TRIGGER rate_fts_ins AFTER INSERT ON rate BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_rate WHERE row = new.rowid;
END;
CREATE TEMP TRIGGER rate_fts_upd AFTER UPDATE ON rate BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 6;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_rate WHERE row = new.rowid;
END;
CREATE TEMP TRIGGER assumption_fts_ins AFTER INSERT ON assumption BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_assumption WHERE ref = new.id;
END;
CREATE TEMP TRIGGER assumption_fts_upd AFTER UPDATE ON assumption BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8 + 7;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_assumption WHERE ref = new.id;
END;
CREATE TEMP TRIGGER system_fts_ins AFTER INSERT ON system BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_system WHERE ref = new.id;
END;
CREATE TEMP TRIGGER system_fts_upd AFTER UPDATE ON system BEGIN
    DELETE FROM kb_fts WHERE rowid = old.rowid * 8;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_system WHERE ref = new.id;
END;
CREATE TEMP TRIGGER model_fts_ins AFTER INSERT ON model BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_model WHERE ref = new.id;
END;
CREATE TEMP TRIGGER model_fts_upd AFTER UPDATE ON model BEGIN
    DELETE FROM kb_fts WHERE rowid = -old.rowid;
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_model WHERE ref = new.id;
END;
CREATE TEMP TRIGGER host_fts_ins AFTER INSERT ON host BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_host WHERE ref = new.id;
END;
CREATE TEMP TRIGGER host_fts_upd AFTER UPDATE ON host BEGIN
    DELETE FROM kb_fts WHERE rowid = -(old.rowid + 1000000000000);
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_host WHERE ref = new.id;
END;
CREATE TEMP TRIGGER benchmark_fts_ins AFTER INSERT ON benchmark BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_benchmark WHERE row = new.rowid;
END;
CREATE TEMP TRIGGER price_fts_ins AFTER INSERT ON price BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_price WHERE row = new.rowid;
END;
CREATE TEMP TRIGGER claim_fts_ins AFTER INSERT ON claim BEGIN
    INSERT INTO kb_fts(rowid, kind, ref, title, body)
    SELECT fid, kind, ref, title, body FROM kb_text_claim WHERE row = new.rowid;
END;
