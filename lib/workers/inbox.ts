/** Messages arrive on events; the worker runtime awaits them in order. */
export class Inbox<T> {
  private readonly queue: T[] = [];
  private waiter: ((value: T) => void) | undefined;

  push(message: T): void {
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w(message);
    } else {
      this.queue.push(message);
    }
  }

  next(): Promise<T> {
    const head = this.queue.shift();
    if (head !== undefined) return Promise.resolve(head);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }
}
