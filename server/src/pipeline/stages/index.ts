// The stage table: which function runs a job of each stage. A new stage is added here and
// nowhere else.

import type { PipelineStage } from '../../../../shared/types.ts';
import { chunk } from './chunk.ts';
import { discover } from './discover.ts';
import { embed } from './embed.ts';
import { extract } from './extract.ts';
import type { StageContext } from './context.ts';
import { ingest } from './ingest.ts';
import { parse } from './parse.ts';

export type Stage = (context: StageContext, subject: string) => Promise<void>;

export const STAGES: Record<PipelineStage, Stage> = { ingest, parse, chunk, embed, extract, discover };

/**
 * Whether a stage that keeps failing marks its item failed. Discovery only adds proposals about an
 * item that is already searchable, so its failure is reported on the job and costs the item nothing.
 */
export const FAILURE_FAILS_ITEM: Record<PipelineStage, boolean> = {
  ingest: true,
  parse: true,
  chunk: true,
  embed: true,
  extract: true,
  discover: false,
};

export type { StageContext } from './context.ts';
