// What every stage needs: the workspace's store, the blob store, the folder being indexed and
// the settings. Stages are functions of this context and one job subject, and are idempotent.

import type { RelationshipClassifier } from '../../discover/classifier.ts';
import type { LazyEmbedder } from '../../embed/choice.ts';
import type { ModelExtractor } from '../../extract/model/modelExtractor.ts';
import type { BlobStore } from '../../store/blobs.ts';
import type { WorkspaceStore } from '../../store/contract.ts';
import type { FolderRules } from '../../workspace/folderRules.ts';
import type { DiscoveryLanes } from '../threads/discoveryLanes.ts';
import type { StageThreads } from '../threads/stageThreads.ts';
import type { PipelineSettings } from '../settings.ts';

export interface StageContext {
  store: WorkspaceStore;
  blobs: BlobStore;
  /** Absolute path of the folder whose files become items. */
  folder: string;
  /** Which of the folder's files are indexed (.gitignore, exclude patterns, the built-in list): ingest obeys them whoever queued the path. */
  rules: FolderRules;
  settings: PipelineSettings;
  /** The workspace's embedding model, loaded on first use. */
  embedder: LazyEmbedder;
  /** The threads files are parsed, chunked and extracted in, under the settings' memory and time limits. */
  threads: StageThreads;
  /** The threads discovery runs in when it should not hold this thread (the language server's SQLite store); absent: here, one item at a time. */
  discoveryLanes?: DiscoveryLanes | null;
  /** A language model's weak opinion on candidate pairs; absent unless a model is configured. */
  classifier?: RelationshipClassifier | null;
  /** The model stage of extraction (extract/model/); absent unless asked for and a model is configured. */
  modelExtractor?: ModelExtractor | null;
  /** When the current index run or watch batch began (ISO): identical files first seen since then are weighed against each other. */
  runStartedAt?: string;
}
