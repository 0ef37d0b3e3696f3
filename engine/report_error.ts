/**
 * Hands `error` to `callback`, or logs it when there is none. A callback that throws is logged with the error it
 * was given, never rethrown: reporting a failure must not become a second one in the frame that reported it.
 */
export function report_error(callback: ((error: Error) => void) | null, error: Error, reporter: string): void {
    if (callback === null) {
        console.error(error);
        return;
    }
    try {
        callback(error);
    } catch (thrown) {
        console.error(`${reporter}: the on_error callback threw while reporting`, error, thrown);
    }
}
