/**
 * What the engine and the steps need from the profile API. The client in this folder implements it
 * over HTTP; the only method that changes anything is `execute`, which the engine alone calls.
 */
import type { PaletteMutation } from '../engine/mutation.js';

export interface PaletteApi {
  /** Sends one mutation (PUT a draft, PATCH publish). Called only through the engine's journaled gateway. */
  execute(request: PaletteMutation, signal?: AbortSignal): Promise<void>;
}
