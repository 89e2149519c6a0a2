/** How values documents are compared: which differences follow the pack version and are ignored. */
import { z } from 'zod';
import { PathText } from './path-schema.js';

export const ValuesSettingsSchema = z.strictObject({
  /**
   * Paths whose differences are ignored (image tags and versions follow the pack version, spec 9.1.5).
   * `*` matches one key, `**` any number of keys; a matching path hides everything under it.
   */
  ignore: z
    .array(PathText)
    .default(['**.image', '**.image.tag', '**.tag', 'pack.content.images', '**.images', '**.version', '**.imageVersion', '**.imageTag']),
  /** Fields that identify an item in a list of maps (lists are matched by these, else by index). */
  listKeys: z.array(z.string().min(1)).default(['name', 'id', 'key', 'image']),
});
export type ValuesSettings = z.output<typeof ValuesSettingsSchema>;
export type ValuesSettingsInput = z.input<typeof ValuesSettingsSchema>;
