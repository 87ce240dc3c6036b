"""Qt-free state of the console: hall tiles, one table, the alert queue, the penalty register and
its audit trail, the record sheet, manual entry. Views subscribe to their ``Signal`` attributes."""
