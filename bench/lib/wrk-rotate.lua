-- wrk script for calls that rotate through several keys: each request carries the next
-- `Authorization` value of WRK_AUTHORIZATIONS (comma-separated), in turn; the reporter
-- (wrk-report.lua, named by WRK_REPORTER) prints the result line as for one key.
dofile(os.getenv("WRK_REPORTER"))

local values = {}
for value in string.gmatch(os.getenv("WRK_AUTHORIZATIONS") or "", "[^,]+") do
  values[#values + 1] = value
end
local turn = 0

function request()
  turn = turn % #values + 1
  wrk.headers["Authorization"] = values[turn]
  return wrk.format()
end
