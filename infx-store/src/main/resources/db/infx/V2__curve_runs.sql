-- Latest-view bookkeeping, so a refresh reads one summary row per (curve, run) instead of every
-- historical row of the curves an ingest touched:
-- * copy one (curve, run) at a time: index benchmark rows by curve, then run;
-- * curve_runs: successful real rows per (curve, run) with the image statistics the append-only
--   chaining reads (row count, rows with an image, distinct images, the smallest image).
drop index benchmark_results_curve_idx;
create index benchmark_results_curve_run_idx on benchmark_results (curve_key, workflow_run_id);

create table curve_runs (
  curve_key varchar(1024) not null,
  workflow_run_id bigint not null references workflow_runs (id),
  n bigint not null,
  images bigint not null,
  distinct_images bigint not null,
  image varchar(1024),
  constraint curve_runs_pk primary key (curve_key, workflow_run_id)
);

insert into curve_runs (curve_key, workflow_run_id, n, images, distinct_images, image)
  select curve_key, workflow_run_id, count(*), count(image), count(distinct image), min(image)
  from benchmark_results where error is null and simulated = false
  group by curve_key, workflow_run_id;
