// Uploaded files kept in the browser (IndexedDB) so a reload restores the data, not only the settings.
// Nothing leaves the machine. Failures (private mode, quota) are reported, never fatal.

const DB_NAME = 'gpprobe';
const STORE = 'uploads';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB is not available'));
  });
}

async function run<T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = body(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
      transaction.onabort = () =>
        reject(transaction.error ?? new Error('IndexedDB transaction aborted (storage full?)'));
    });
  } finally {
    db.close();
  }
}

export interface StoredFile {
  name: string;
  blob: Blob;
}

export function saveFiles(key: string, files: StoredFile[]): Promise<unknown> {
  return run('readwrite', (store) => store.put(files, key));
}

export async function loadFiles(key: string): Promise<StoredFile[] | null> {
  const value = await run('readonly', (store) => store.get(key));
  return Array.isArray(value) ? (value as StoredFile[]) : null;
}

export function deleteFiles(key: string): Promise<unknown> {
  return run('readwrite', (store) => store.delete(key));
}
