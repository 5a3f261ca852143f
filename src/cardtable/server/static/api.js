// The JSON API, as promises; a refusal becomes an ApiError carrying the server's reason.

/** A refusal: ``message`` the server's sentence; for a refused move, its ``reason`` alone (without
 *  the move it quotes) or the ``places`` an ambiguous one could go to (the Problem of /docs). */
export class ApiError extends Error {
  constructor(status, detail, problem = {}) {
    super(detail);
    this.status = status;
    this.reason = problem.reason ?? null;
    this.places = problem.places ?? null;
    this.play = problem.play ?? null; // a stale board: the play as it stands
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "the server cannot be reached; is `cardtable serve` still running?");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.detail || response.statusText, data);
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body);
