/** Drag and drop between features: a dragged SQL name (explorer -> editor). */
export const SQL_NAME_MIME = 'application/x-smp-sql-name';
