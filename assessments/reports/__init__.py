"""Office reports and charts under /informes/ (issue #10): collections by fund and period, the IRR-7
appropriation, uncollected amounts, SID-3 remittances, delinquency aging and statutory clocks.

Builders (one module per report) return plain dataclasses of Decimals; `catalog` turns them into
tables and charts; views only pick filters and a format (page, PDF through the document service, XLSX).
"""
