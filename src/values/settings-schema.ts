/** How values documents are compared: which differences follow the pack version and are ignored. */
import { z } from 'zod';

export const ValuesSettingsSchema = z.strictObject({
  /**
   * Paths whose differences are ignored (image tags and versions follow the pack version, spec 9.1.5).
   * `*` matches one key, `**` any number of keys.
   */
  ignore: z.array(z.string().min(1)).default(['**.image', '**.image.tag', '**.tag', 'pack.content.images', '**.images', '**.version']),
  /** Fields that identify an item in a list of maps (lists are matched by these, else by index). */
  listKeys: z.array(z.string().min(1)).default(['name', 'id', 'key', 'image']),
});
export type ValuesSettings = z.output<typeof ValuesSettingsSchema>;
