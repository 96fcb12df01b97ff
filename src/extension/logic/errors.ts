// Error text for logs. Pure: no vscode.
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.stack ?? `${e.name}: ${e.message}`;
  return String(e);
}
