/** One finding of `channel lint`. */
export interface LintFinding {
  rule: string;
  severity: "error" | "warning";
  message: string;
  fix: string;
}

/** Records a finding; each rule gets one. */
export type AddFinding = (rule: string, severity: LintFinding["severity"], message: string, fix: string) => void;
