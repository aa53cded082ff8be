/**
 * A wait in words that says how long it has lasted once it is long (review 53b #11: a folder
 * that took a minute to list said "Loading…" all along, as one that had hung would). The note is
 * announced once, when the wait turns slow; the seconds counting after it are for the eye.
 */
import { useEffect, useState } from "react";
import { slowWaitSeconds } from "./waiting.utils";

/** `down`: the service is known not to answer now (the badge is red): said so, not "slow". */
export function Waiting({ what, className = "muted", down = false }: { what: string; className?: string; down?: boolean }) {
  const [since] = useState(() => Date.now());
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = slowWaitSeconds(now - since);
  return (
    <p className={className} role="status">
      {what}…
      {seconds !== undefined && (
        <>
          {" "}
          <span className="waiting-slow">
            {/* One verdict with the badge (review 55b #10: red "down" above, "slow" here). */}
            {down ? "The service does not answer now (see the badge); still waiting" : "The service is slow to answer; still waiting"}
            <span aria-hidden="true"> ({seconds} s so far)</span>. It goes on by itself, and you may go elsewhere meanwhile.
          </span>
        </>
      )}
    </p>
  );
}
