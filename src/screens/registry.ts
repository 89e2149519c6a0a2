/** Which screen shows which step kind. Kinds without one get the generic screen. */
import { GenericStep } from './GenericStep.js';
import type { StepScreen } from './step-screen.js';
import { VerifyScreen } from './VerifyScreen.js';
import { DraftScreen } from './DraftScreen.js';
import { ReconcileScreen } from './ReconcileScreen.js';
import { PreflightScreen } from './PreflightScreen.js';
import { SnapshotScreen } from './SnapshotScreen.js';
import { PlanScreen } from './PlanScreen.js';
import { CustomizeScreen } from './CustomizeScreen.js';
import { MigrationsScreen } from './MigrationsScreen.js';
import { DiagnoseScreen } from './DiagnoseScreen.js';
import { RecoverScreen } from './RecoverScreen.js';
import { ApplyScreen } from './ApplyScreen.js';
import { RepaveScreen } from './RepaveScreen.js';

const screens: Record<string, StepScreen> = {
  preflight: PreflightScreen,
  snapshot: SnapshotScreen,
  plan: PlanScreen,
  customize: CustomizeScreen,
  migrations: MigrationsScreen,
  diagnose: DiagnoseScreen,
  recover: RecoverScreen,
  verify: VerifyScreen,
  draft: DraftScreen,
  reconcile: ReconcileScreen,
  apply: ApplyScreen,
  repave: RepaveScreen,
};

export function screenFor(kind: string): StepScreen {
  return screens[kind] ?? GenericStep;
}
