/**
 * The lead wires the migration screens into src/screens/registry.ts; until then these tests map
 * the three step kinds to their screens the same way, so the real App shows them.
 */
import type { StepScreen } from '../../../src/screens/step-screen.js';
import { DiagnoseScreen } from '../../../src/screens/DiagnoseScreen.js';
import { MigrationsScreen } from '../../../src/screens/MigrationsScreen.js';
import { RecoverScreen } from '../../../src/screens/RecoverScreen.js';

export const migrationScreens: Record<string, StepScreen> = { migrations: MigrationsScreen, diagnose: DiagnoseScreen, recover: RecoverScreen };
