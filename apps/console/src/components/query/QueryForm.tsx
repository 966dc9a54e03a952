'use client';
// The question form of the pages that run a query against the memories (Recall debug, what the agent
// sees): the question, the page's own fields, the workspace it runs in, and run. Running the same
// question again fetches it again instead of showing the cached answer.
import { useState, type ReactNode } from 'react';
import { ALL_WORKSPACES, useWorkspaceChoice } from '../../client/workspace.tsx';
import { Button, inputClass } from '../ui.tsx';
import { ScopeSelect } from '../workspace/common.tsx';

/**
 * The query last submitted and how to submit the next: a query equal to the last one refetches it.
 * The workspace starts as the Library's choice; a choice made on the page stays for that page.
 */
export function useQuerySubmission<T extends object>() {
  const { workspace: chosen } = useWorkspaceChoice();
  const [scope, setScope] = useState<string | null>(null);
  const workspace = scope ?? chosen;
  const [submitted, setSubmitted] = useState<T | null>(null);
  /** Submits `next` (with the workspace unless it is All); `refetch` runs when it equals the last one. */
  const submit = (next: T, refetch: () => void) => {
    const withScope = { ...next, ...(workspace !== ALL_WORKSPACES ? { workspace } : {}) } as T;
    if (JSON.stringify(withScope) === JSON.stringify(submitted)) refetch();
    else setSubmitted(withScope);
  };
  return { submitted, submit, workspace, setWorkspace: setScope };
}

export function QueryForm({
  testIdPrefix,
  label,
  placeholder,
  runLabel,
  query,
  onQuery,
  workspace,
  onWorkspace,
  busy,
  onRun,
  children,
}: {
  /** `<prefix>-query`, `<prefix>-workspace` and `<prefix>-run` name the form's controls for tests. */
  testIdPrefix: string;
  label: string;
  placeholder: string;
  runLabel: string;
  query: string;
  onQuery: (query: string) => void;
  workspace: string;
  onWorkspace: (workspace: string) => void;
  busy: boolean;
  onRun: () => void;
  /** The page's own fields, between the question and the workspace. */
  children?: ReactNode;
}) {
  return (
    <form
      className="flex flex-wrap items-end gap-2 rounded-xl border border-line bg-panel p-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (query.trim()) onRun();
      }}
    >
      <label className="flex min-w-0 flex-[3_1_14rem] flex-col gap-1 text-xs text-muted">
        {label}
        <input data-testid={`${testIdPrefix}-query`} className={inputClass} value={query} placeholder={placeholder} onChange={(e) => onQuery(e.target.value)} />
      </label>
      {children}
      <ScopeSelect testId={`${testIdPrefix}-workspace`} value={workspace} onChange={onWorkspace} />
      <Button type="submit" variant="primary" data-testid={`${testIdPrefix}-run`} disabled={!query.trim() || busy}>
        {busy ? '…' : runLabel}
      </Button>
    </form>
  );
}
